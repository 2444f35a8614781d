#include "parley/config/yaml_scalar_utf8.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <sstream>

#include "parley/core/utf8.hpp"

namespace parley::config {
namespace {

// The document's events are read, so that each scalar is looked at once (an alias is not its
// anchor's subtree again).
class scalar_utf8_check final : public YAML::EventHandler {
 public:
  std::optional<YAML::Mark> bad;

  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string& value) override {
    if (!bad && !is_valid_utf8(value)) bad = mark;
  }
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

}  // namespace

std::optional<YAML::Mark> scalar_not_utf8(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  scalar_utf8_check check;
  try {
    // The first document only, as YAML::Load reads (a loop over documents never ends on some
    // inputs, "," for one).
    parser.HandleNextDocument(check);
  } catch (const YAML::Exception&) {
    return std::nullopt;  // Load reports it
  }
  return check.bad;
}

}  // namespace parley::config
