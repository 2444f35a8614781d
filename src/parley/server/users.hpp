// Who is asking: seed 002's humans are identified users. `parley serve --users FILE` names them,
// each with its own bearer token; without a file the server has one user, `operator`, who sees
// everything (the single-operator mode every earlier version had).
//
//   users:
//     - id: alice            # [A-Za-z][A-Za-z0-9_-]*, at most 64 characters
//       name: Alice Liddell  # optional, defaults to the id
//       token: 3f9c...       # at least 16 characters, unique; the file must not be readable by others
//       operator: true       # optional: also sees dialogs no human takes part in (AI reflections)
//
// A user sees a dialog (and every subdialog under it) when they take part in its root.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/records.hpp"

namespace parley::server {

struct user {
  std::string id;
  std::string name;
  std::string token;
  bool sees_unowned = false;  // `operator: true`
};

class user_directory {
 public:
  // The single-operator directory.
  user_directory();
  // Reads and checks a users file; errors name the file and the field (`users[1].token: ...`).
  static result<user_directory> load(const std::string& path);

  bool multi_user() const noexcept { return multi_user_; }
  // The user a bearer token belongs to; nullptr when none. Compares against every token in
  // constant time per token, so timing tells nothing about which one nearly matched.
  const user* authenticate(std::string_view token) const noexcept;
  const user* find(std::string_view id) const noexcept;
  // The single operator (single-user mode only).
  const user& only_user() const noexcept { return users_.front(); }

  // Whether `who` may see a dialog whose root is `root`.
  bool may_see(const user& who, const dialog_row& root) const noexcept;

 private:
  std::vector<user> users_;
  bool multi_user_ = false;
};

// A process-wide single-operator directory, for programs that serve without users (benchmarks).
const user_directory& single_operator();

}  // namespace parley::server
