// Loading the one YAML document of a file (a scenario, a bgpd
// configuration) and finding a second one the user did not mean to be
// ignored. Header-only over yaml-cpp, for the sim and daemon parsers.
//
// yaml-cpp's LoadAll never returns on some inputs (",ult": its parser
// yields empty documents forever, growing memory), so it is not used:
// YAML::Load reads the first document, and the documents after it are
// walked as parser events, at most kMaxDocuments of them.
#pragma once

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include <optional>
#include <sstream>
#include <string>
#include <string_view>

namespace arfabric {

namespace yaml_documents_detail {

// Where the first node of a document after the first starts, if any such
// document holds one (an empty one, or one that is only null, as a
// trailing '---' leaves, does not count).
class SecondDocumentFinder : public YAML::EventHandler {
 public:
  std::optional<YAML::Mark> found;
  int documents = 0;

  void OnDocumentStart(const YAML::Mark&) override { ++documents; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                const std::string&) override {
    node(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&,
                       YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    node(mark);
  }
  void OnMapEnd() override {}

 private:
  void node(const YAML::Mark& mark) {
    if (documents >= 2 && !found) found = mark;
  }
};

}  // namespace yaml_documents_detail

inline constexpr int kMaxYamlDocuments = 64;

// The first document of `text` (a null node when there is none). Throws
// YAML::Exception on a syntax error in it.
inline YAML::Node load_first_document(std::string_view text) {
  return YAML::Load(std::string(text));
}

// Where a document after the first that holds a node starts (its first
// node), or nullopt. Throws YAML::Exception on a syntax error after the
// first document.
inline std::optional<YAML::Mark> second_document(std::string_view text) {
  std::istringstream in{std::string(text)};
  YAML::Parser parser(in);
  yaml_documents_detail::SecondDocumentFinder finder;
  for (int i = 0; i < kMaxYamlDocuments && !finder.found; ++i) {
    if (!parser.HandleNextDocument(finder)) break;
  }
  return finder.found;
}

}  // namespace arfabric
