// Shared by the fuzz targets of YAML parsers: how many lines YAML sees in
// an input, the bound for an error's line number.
#pragma once

#include <cstddef>
#include <string_view>

// Lines as YAML counts them: "\n", "\r\n" or a lone "\r" ends one.
inline int yaml_line_count(std::string_view text) {
  int lines = 1;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' ||
        (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')))
      ++lines;
  return lines;
}
