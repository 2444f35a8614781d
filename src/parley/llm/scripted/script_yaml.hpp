// YAML reading helpers for the script loader: typed fields that fail with
// `FILE:LINE:COLUMN: path.to.key: problem`. Private to llm/scripted (it includes yaml-cpp).
#pragma once

#include <yaml-cpp/yaml.h>

#include <boost/json/value.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::llm::scripted_detail {

// One value in the document with what is needed to report on it: the key node it belongs to
// (a null value has no useful position of its own, so errors point at its key) and its path.
struct yaml_field {
  YAML::Node key;  // undefined for sequence items and the root
  YAML::Node value;
  std::string path;

  yaml_field child(const YAML::Node& child_key, const YAML::Node& child_value) const;
  yaml_field item(std::size_t index, const YAML::Node& item_value) const;
};

class yaml_reader {
 public:
  explicit yaml_reader(std::string source) : source_(std::move(source)) {}

  const std::string& source() const noexcept { return source_; }

  error fail(const yaml_field& at, std::string_view problem) const;
  error fail_at_key(const yaml_field& at, std::string_view problem) const;
  error fail_at(int line, int column, std::string_view path, std::string_view problem) const;

  // `at` must be a map whose keys are all in `known` and appear once.
  result<void> check_map(const yaml_field& at, const std::vector<std::string>& known) const;
  // The entry `key` of the map `map`, which must be there.
  result<yaml_field> require(const yaml_field& map, const std::string& key) const;
  result<void> check_sequence(const yaml_field& at) const;
  result<std::string> text(const yaml_field& at) const;
  result<std::int64_t> integer(const yaml_field& at, std::int64_t minimum) const;
  // A YAML value as JSON: plain scalars become null, booleans and numbers where they read as
  // such (YAML 1.2 core schema); quoted scalars stay strings.
  result<boost::json::value> to_json(const yaml_field& at) const;

 private:
  std::string source_;
};

const char* yaml_kind_name(const YAML::Node& node);

}  // namespace parley::llm::scripted_detail
