#include "parley/rtws/index_text.hpp"

#include <yaml-cpp/yaml.h>

#include <boost/json/serialize.hpp>
#include <boost/json/stream_parser.hpp>

#include <fstream>
#include <sstream>

#include "parley/core/file_text.hpp"

namespace parley::rtws {

namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

void emit(YAML::Emitter& out, const json::value& value) {
  switch (value.kind()) {
    case json::kind::object:
      out << YAML::BeginMap;
      for (const auto& [key, item] : value.get_object()) {
        out << YAML::Key << std::string(key) << YAML::Value;
        emit(out, item);
      }
      out << YAML::EndMap;
      break;
    case json::kind::array:
      out << YAML::BeginSeq;
      for (const auto& item : value.get_array()) emit(out, item);
      out << YAML::EndSeq;
      break;
    case json::kind::string:
      out << YAML::DoubleQuoted << std::string(value.get_string());
      break;
    case json::kind::bool_:
      out << value.get_bool();
      break;
    case json::kind::int64:
      out << value.get_int64();
      break;
    case json::kind::uint64:
      out << value.get_uint64();
      break;
    case json::kind::double_:
      out << json::serialize(value);  // shortest round-tripping text
      break;
    case json::kind::null:
      out << YAML::Null;
      break;
  }
}

std::string position_of(const YAML::Mark& mark) {
  return std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

error file_error(const fs::path& file, const std::string& where, const std::string& problem) {
  return make_error(errc::invalid_argument, file.string() + ":" + where + ": " + problem);
}

result<json::value> yaml_to_tree(const YAML::Node& node, const fs::path& file) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      json::object out;
      for (const auto& item : node) {
        if (!item.first.IsScalar()) return file_error(file, position_of(item.first.Mark()), "a key must be a scalar");
        const std::string key = item.first.Scalar();
        if (out.contains(key)) return file_error(file, position_of(item.first.Mark()), "duplicate key '" + key + "'");
        auto value = yaml_to_tree(item.second, file);
        if (!value) return std::move(value).err();
        out.emplace(key, std::move(*value));
      }
      return json::value(std::move(out));
    }
    case YAML::NodeType::Sequence: {
      json::array out;
      for (const auto& item : node) {
        auto value = yaml_to_tree(item, file);
        if (!value) return std::move(value).err();
        out.push_back(std::move(*value));
      }
      return json::value(std::move(out));
    }
    case YAML::NodeType::Scalar:
      return json::value(node.Scalar());
    default:  // null or undefined: an empty value
      return json::value(json::string());
  }
}

// `line:column` of a byte offset in `text`, both 1-based.
std::string line_column_of(std::string_view text, std::size_t offset) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

std::string quoted(const json::value& value) {
  std::string text = json::serialize(value);
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return text;
}

const char* shape_of(const json::value& value) {
  if (value.is_object()) return "a mapping";
  if (value.is_array()) return "a list";
  return "a single value";
}

void collect_differences(const json::value& expected, const json::value& actual, const std::string& path,
                         std::vector<std::string>& out) {
  const std::string where = path.empty() ? "(whole file)" : path;
  if (expected.kind() != actual.kind()) {
    out.push_back(where + ": the file has " + shape_of(actual) + ", the events imply " + shape_of(expected));
    return;
  }
  if (expected.is_object()) {
    const auto& want = expected.get_object();
    const auto& have = actual.get_object();
    for (const auto& [key, value] : want) {
      const std::string child = path.empty() ? std::string(key) : path + "." + std::string(key);
      if (const auto* found = have.if_contains(key)) {
        collect_differences(value, *found, child, out);
      } else {
        out.push_back(child + ": missing; the events imply " + quoted(value));
      }
    }
    for (const auto& [key, value] : have) {
      if (!want.contains(key)) {
        out.push_back((path.empty() ? std::string(key) : path + "." + std::string(key)) +
                      ": not implied by the events");
      }
    }
  } else if (expected.is_array()) {
    const auto& want = expected.get_array();
    const auto& have = actual.get_array();
    if (want.size() != have.size()) {
      out.push_back(where + ": the file lists " + std::to_string(have.size()) + " entries, the events imply " +
                    std::to_string(want.size()));
    }
    for (std::size_t i = 0; i < want.size() && i < have.size(); ++i) {
      collect_differences(want[i], have[i], path + "[" + std::to_string(i) + "]", out);
    }
  } else if (expected != actual) {
    out.push_back(where + ": the file says " + quoted(actual) + ", the events imply " + quoted(expected));
  }
}

}  // namespace

std::string to_yaml_text(const json::value& doc) {
  YAML::Emitter out;
  out.SetIndent(2);
  emit(out, doc);
  return std::string(out.c_str()) + "\n";
}

std::string to_json_file_text(const json::value& doc) {
  if (!doc.is_array() || doc.get_array().empty()) return json::serialize(doc) + "\n";
  std::string text = "[\n";
  const auto& items = doc.get_array();
  for (std::size_t i = 0; i < items.size(); ++i) {
    text += "  " + json::serialize(items[i]) + (i + 1 < items.size() ? ",\n" : "\n");
  }
  return text + "]\n";
}

result<std::string> read_whole_file(const fs::path& file) { return read_regular_file(file, errc::io_error); }

result<json::value> load_yaml_tree(const fs::path& file) {
  auto text = read_whole_file(file);
  if (!text) return std::move(text).err();
  try {
    return yaml_to_tree(YAML::Load(*text), file);
  } catch (const YAML::Exception& e) {
    return file_error(file, position_of(e.mark), e.msg);
  } catch (const std::exception& e) {  // yaml-cpp may also throw plain standard exceptions
    return make_error(errc::invalid_argument, file.string() + ": " + e.what());
  }
}

result<json::value> parse_json_with_position(std::string_view text, std::size_t& column) {
  json::stream_parser parser;
  boost::system::error_code ec;
  const std::size_t consumed = parser.write(text.data(), text.size(), ec);
  if (!ec) parser.finish(ec);
  if (ec) {
    column = std::min(consumed, text.size()) + 1;
    return make_error(errc::invalid_argument, "invalid JSON: " + ec.message());
  }
  return parser.release();
}

result<json::value> load_json_file(const fs::path& file) {
  auto text = read_whole_file(file);
  if (!text) return std::move(text).err();
  std::size_t column = 0;
  auto value = parse_json_with_position(*text, column);
  if (!value) return file_error(file, line_column_of(*text, column - 1), value.err().message);
  return value;
}

json::value as_text_tree(const json::value& doc) {
  switch (doc.kind()) {
    case json::kind::object: {
      json::object out;
      for (const auto& [key, value] : doc.get_object()) out.emplace(key, as_text_tree(value));
      return out;
    }
    case json::kind::array: {
      json::array out;
      for (const auto& value : doc.get_array()) out.push_back(as_text_tree(value));
      return out;
    }
    case json::kind::string:
      return doc;
    case json::kind::bool_:
      return json::string(doc.get_bool() ? "true" : "false");
    case json::kind::null:
      return json::string();
    default:
      return json::string(json::serialize(doc));
  }
}

std::vector<std::string> tree_differences(const json::value& expected, const json::value& actual) {
  std::vector<std::string> out;
  collect_differences(expected, actual, "", out);
  return out;
}

}  // namespace parley::rtws
