#include "parley/server/users.hpp"

#include <sys/stat.h>

#include <algorithm>

#include "parley/config/yaml_reader.hpp"
#include "parley/config/yaml_value.hpp"
#include "parley/core/json.hpp"
#include "parley/server/auth.hpp"

namespace parley::server {
namespace {

constexpr std::size_t kMaxIdChars = 64;
constexpr std::size_t kMinTokenChars = 16;

bool is_user_id(std::string_view id) {
  if (id.empty() || id.size() > kMaxIdChars) return false;
  const auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (!alpha(id.front())) return false;
  return std::all_of(id.begin(), id.end(),
                     [&](char c) { return alpha(c) || (c >= '0' && c <= '9') || c == '_' || c == '-'; });
}

error field_problem(const std::string& path, const std::string& field, const std::string& problem) {
  return make_error(errc::invalid_argument, path + ": " + field + ": " + problem);
}

result<user> read_user(const std::string& path, const std::string& where, const json::value& item) {
  if (!item.is_object()) return field_problem(path, where, "expected a mapping with id and token");
  const auto& obj = item.get_object();
  for (const auto& field : obj) {
    const std::string_view key = field.key();
    if (key != "id" && key != "name" && key != "token" && key != "operator") {
      return field_problem(path, where + "." + std::string(key), "unknown field (expected id, name, token, operator)");
    }
  }
  user out;
  const auto* id = obj.if_contains("id");
  if (id == nullptr || !id->is_string() || !is_user_id(id->get_string())) {
    return field_problem(path, where + ".id", "expected a name matching [A-Za-z][A-Za-z0-9_-]* (at most 64)");
  }
  out.id = id->get_string();
  const auto* token = obj.if_contains("token");
  if (token == nullptr || !token->is_string() || token->get_string().size() < kMinTokenChars) {
    return field_problem(path, where + ".token", "expected a string of at least 16 characters");
  }
  out.token = token->get_string();
  if (const auto* name = obj.if_contains("name")) {
    if (!name->is_string()) return field_problem(path, where + ".name", "expected a string");
    out.name = name->get_string();
  } else {
    out.name = out.id;
  }
  if (const auto* op = obj.if_contains("operator")) {
    if (!op->is_bool()) return field_problem(path, where + ".operator", "expected true or false");
    out.sees_unowned = op->get_bool();
  }
  return out;
}

}  // namespace

user_directory::user_directory() { users_.push_back(user{"operator", "operator", "", true}); }

result<user_directory> user_directory::load(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return make_error(errc::not_found, path + ": no such users file");
  // Tokens are secrets: a file others can read is refused, as ssh refuses a readable key.
  if ((info.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    return make_error(errc::invalid_argument, path + ": readable by others; chmod 600 it (it holds tokens)");
  }
  auto document = config::detail::load_yaml_file(path);
  if (!document) return std::move(document).err();
  auto tree = config::detail::yaml_to_json(path, *document, "");
  if (!tree) return std::move(tree).err();
  const auto* root = tree->if_object();
  const auto* list = root != nullptr ? json_array_at(*root, "users") : nullptr;
  if (list == nullptr || list->empty()) return field_problem(path, "users", "expected a non-empty list of users");
  if (root->size() != 1) return field_problem(path, "users", "the file has only a `users` list");
  user_directory directory;
  directory.users_.clear();
  directory.multi_user_ = true;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string where = "users[" + std::to_string(i) + "]";
    auto one = read_user(path, where, (*list)[i]);
    if (!one) return std::move(one).err();
    for (const auto& earlier : directory.users_) {
      if (earlier.id == one->id) return field_problem(path, where + ".id", "'" + one->id + "' is listed twice");
      if (earlier.token == one->token) {
        return field_problem(path, where + ".token", "the same token as user '" + earlier.id + "'");
      }
    }
    directory.users_.push_back(std::move(*one));
  }
  return directory;
}

const user* user_directory::authenticate(std::string_view token) const noexcept {
  if (token.empty()) return nullptr;
  const user* found = nullptr;
  for (const auto& candidate : users_) {
    if (!candidate.token.empty() && token_equals(candidate.token, token) && found == nullptr) found = &candidate;
  }
  return found;
}

const user* user_directory::find(std::string_view id) const noexcept {
  for (const auto& candidate : users_) {
    if (candidate.id == id) return &candidate;
  }
  return nullptr;
}

bool user_directory::may_see(const user& who, const dialog_row& root) const noexcept {
  if (!multi_user_) return true;
  if (root.humans.empty()) return who.sees_unowned;
  return std::find(root.humans.begin(), root.humans.end(), who.id) != root.humans.end();
}

const user_directory& single_operator() {
  static const user_directory directory;
  return directory;
}

}  // namespace parley::server
