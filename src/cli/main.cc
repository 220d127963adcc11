#include "cli/main.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/decode.h"

namespace arfabric::cli {

int run(int argc, char** argv) {
  CLI::App app{"arfabric: adaptive routing for AI/ML data-center fabrics"};
  app.require_subcommand(1);
  DecodeOptions decode;
  add_decode_command(app, decode);
  CLI11_PARSE(app, argc, argv);
  if (app.got_subcommand("decode"))
    return run_decode(decode, std::cin, std::cout);
  return 0;
}

}  // namespace arfabric::cli
