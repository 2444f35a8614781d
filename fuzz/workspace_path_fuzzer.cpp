// Workspace paths and access rules (tools/workspace_path.hpp, tools/workspace_access.hpp,
// access/). The workspace is a real folder with links that stay inside, links that leave it (also
// to a sibling whose name starts like it), dangling and looping links, a Taskdoc package, .minds/
// and .dialogs/, and a protected data folder. An input is up to five lines:
//   1. a path a model gives a file tool; 2-3. two dir_glob patterns; 4. a path; 5. a name.
//  - An accepted path (resolve_workspace_path, and resolve_for for reads and writes): canonical,
//    inside the workspace by path components (not by string prefix), and so is where the OS takes
//    it; its relative and lexical forms have no `..` and no Taskdoc package; resolving it again
//    gives the same file; nothing in the protected folder; neither form in .minds/ (but for the
//    member's own memory folder) or .dialogs/, nor outside the rules' allow lists or inside their
//    deny lists (checked here by component, without dir_glob).
//  - dir_glob: a pattern matches everything below what it matches; `within` and
//    `may_match_below` never claim what `matches` contradicts (`within` may say false when unsure).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "parley/access/access_rules.hpp"
#include "parley/access/dir_glob.hpp"
#include "parley/tools/workspace_access.hpp"
#include "parley/tools/workspace_path.hpp"

namespace {

using namespace parley;
using parley::fuzz::as_text;
namespace fs = std::filesystem;

bool is_inside(const fs::path& path, const fs::path& folder) {
  auto p = path.begin();
  for (auto f = folder.begin(); f != folder.end(); ++f, ++p) {
    if (f->empty()) continue;  // a trailing separator
    if (p == path.end() || *p != *f) return false;
  }
  return true;
}

bool starts_with_component(const fs::path& relative, std::string_view first) {
  return !relative.empty() && relative.begin()->native() == first;
}

struct world {
  fuzz::temp_dir dir{"parley-fuzz-ws"};
  fs::path root;
  fs::path data;
  access::access_rules rules;
  std::vector<tools::protected_dir> protected_dirs;
  tools::tool_context context;

  world() {
    const fs::path base = dir.path();
    root = base / "ws";
    const auto file = [](const fs::path& p) { fuzz::write_file(p, "x\n"); };
    file(root / "docs" / "readme.md");
    file(root / "docs" / "secret" / "key.pem");
    file(root / "src" / "main.cpp");
    file(root / "notes.tsk" / "goals.md");
    file(root / ".minds" / "team.yaml");
    file(root / ".minds" / "memory" / "individual" / "lead" / "notes.md");
    file(root / ".dialogs" / "d1" / "log.json");
    file(root / ".parley-data" / "parley.db");
    file(base / "outside" / "secret.txt");
    file(base / "ws-evil" / "secret.txt");
    fs::create_symlink("docs", root / "link_inside");
    fs::create_symlink(root / "src", root / "link_abs_inside");
    fs::create_symlink("../outside", root / "link_out");
    fs::create_symlink(base / "outside", root / "link_out_abs");
    fs::create_symlink("../ws-evil", root / "link_prefix");
    fs::create_symlink("..", root / "link_up");
    fs::create_symlink("nowhere", root / "link_dangling");
    fs::create_symlink("../outside/new", root / "link_dangling_out");
    fs::create_symlink("link_loop", root / "link_loop");
    fs::create_symlink("notes.tsk", root / "link_tsk");
    fs::create_symlink("../outside/secret.txt", root / "link_file_out");
    fs::create_symlink("../..", root / "docs" / "link_back");
    fs::create_symlink("../.minds", root / "docs" / "link_minds");
    fs::create_symlink("../.parley-data", root / "src" / "link_data");
    fs::create_symlink("../../../../team.yaml", root / ".minds" / "memory" / "individual" / "lead" / "link_team");

    data = fs::canonical(root / ".parley-data");
    protected_dirs.push_back({data, "Parley's data directory"});
    rules.read.allow_dirs = {glob("docs/**"), glob("src"), glob(".minds/memory")};
    rules.read.deny_dirs = {glob("docs/secret")};
    rules.write.allow_dirs = {glob("docs")};
    rules.write.deny_exts = {"exe"};
    context.member_id = "lead";
    context.workspace = root;
    context.access = &rules;
    context.protected_dirs = &protected_dirs;
  }

  static access::dir_glob glob(std::string_view pattern) { return access::dir_glob::parse(pattern).value(); }
};

void check_accepted(const world& w, const tools::workspace_path& where, std::string_view given) {
  const fs::path root = fs::canonical(w.root);
  const std::string shown(given);
  FUZZ_CHECK(where.root == root, shown + ": the root is not the canonical workspace");
  FUZZ_CHECK(where.absolute.is_absolute(), shown + ": not absolute");
  FUZZ_CHECK(is_inside(where.absolute, root), shown + " → " + where.absolute.string() + ": outside the workspace");
  // Where the OS takes it, following every link that exists.
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(where.absolute, ec);
  FUZZ_CHECK(!ec && real == where.absolute, shown + ": resolving again gives " + real.string());
  FUZZ_CHECK(where.relative == (where.absolute == root ? fs::path(".") : where.absolute.lexically_relative(root)),
             shown + ": relative is " + where.relative.string());
  for (const fs::path* form : {&where.relative, &where.lexical}) {
    FUZZ_CHECK(!form->is_absolute(), shown + ": an absolute relative form");
    for (const auto& part : *form) {
      FUZZ_CHECK(part != "..", shown + ": a '..' in " + form->string());
      FUZZ_CHECK(!tools::is_taskdoc_package_name(part.native()), shown + ": a Taskdoc package in " + form->string());
    }
  }
  auto again = tools::resolve_workspace_path(w.root, where.relative.string());
  FUZZ_CHECK(again && again->absolute == where.absolute, shown + ": its relative form resolves elsewhere");
}

// What resolve_for must have refused, judged by path components rather than dir_glob.
void check_allowed(const world& w, const tools::workspace_path& where, tools::file_access mode,
                   std::string_view given) {
  const std::string shown(given);
  FUZZ_CHECK(!is_inside(where.absolute, w.data), shown + ": inside the protected folder");
  FUZZ_CHECK(!is_inside((where.root / where.lexical).lexically_normal(), w.data),
             shown + ": written inside the protected folder");
  for (const fs::path* form : {&where.relative, &where.lexical}) {
    const fs::path own = ".minds/memory/individual/lead";
    const bool in_own = is_inside(*form, own);
    FUZZ_CHECK(!starts_with_component(*form, ".dialogs"), shown + ": in .dialogs/");
    FUZZ_CHECK(in_own || !starts_with_component(*form, ".minds"), shown + ": in .minds/ as " + form->string());
    if (in_own) continue;
    if (mode == tools::file_access::read) {
      FUZZ_CHECK(!is_inside(*form, "docs/secret"), shown + ": reads inside no_read_dirs docs/secret");
      FUZZ_CHECK(is_inside(*form, "docs") || is_inside(*form, "src") || is_inside(*form, ".minds/memory"),
                 shown + ": reads outside read_dirs as " + form->string());
    } else {
      FUZZ_CHECK(is_inside(*form, "docs"), shown + ": writes outside write_dirs as " + form->string());
    }
  }
}

void check_globs(std::string_view a_text, std::string_view b_text, std::string_view path, std::string_view name) {
  auto a = access::dir_glob::parse(a_text);
  if (!a) return;
  const std::string child = std::string(path) + "/" + std::string(name.empty() ? "x" : name);
  const bool matched = a->matches(path);
  if (matched) FUZZ_CHECK(a->matches(child), "'" + a->text() + "' matches " + std::string(path) + " but not " + child);
  // A name with a separator or a dot segment is not one segment below.
  const bool one_segment = !name.empty() && name.find('/') == std::string_view::npos && name != "." && name != "..";
  if (one_segment && !matched && a->matches(child)) {
    FUZZ_CHECK(a->may_match_below(path),
               "'" + a->text() + "' matches " + child + " yet may_match_below(" + std::string(path) + ") is false");
  }
  auto b = access::dir_glob::parse(b_text);
  if (!b) return;
  if (a->within(*b)) {
    for (const std::string& p : {std::string(path), child}) {
      if (a->matches(p)) {
        FUZZ_CHECK(b->matches(p), "'" + a->text() + "' is within '" + b->text() + "', yet only the first matches " + p);
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const world w;
  const auto lines = fuzz::split_parts(as_text(data, size), "\n");
  const std::string_view given = lines[0];

  if (auto where = tools::resolve_workspace_path(w.root, given)) {
    check_accepted(w, *where, given);
  } else {
    FUZZ_CHECK(where.err().code == errc::invalid_argument, "refused as " + where.err().message);
  }
  for (const auto mode : {tools::file_access::read, tools::file_access::write}) {
    for (const auto kind : {access::path_kind::file, access::path_kind::directory}) {
      if (auto where = tools::resolve_for(w.context, given, mode, kind)) {
        check_accepted(w, *where, given);
        check_allowed(w, *where, mode, given);
      }
    }
  }
  if (lines.size() >= 4) check_globs(lines[1], lines[2], lines[3], lines.size() >= 5 ? lines[4] : "");
  return 0;
}
