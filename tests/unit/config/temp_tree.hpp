// A unique temporary folder for one test, removed with everything in it when the test ends.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace parley::config::testing {

class temp_tree {
 public:
  temp_tree() {
    std::string pattern = (std::filesystem::temp_directory_path() / "parley-config-XXXXXX").string();
    const char* made = ::mkdtemp(pattern.data());
    EXPECT_NE(made, nullptr) << "mkdtemp failed";
    root_ = pattern;
  }
  ~temp_tree() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  temp_tree(const temp_tree&) = delete;
  temp_tree& operator=(const temp_tree&) = delete;

  const std::filesystem::path& root() const noexcept { return root_; }

  // Writes `text` to `relative` (creating folders) and returns the full path.
  std::filesystem::path write(std::string_view relative, std::string_view text) const {
    const std::filesystem::path path = root_ / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << text;
    EXPECT_TRUE(out.good()) << "cannot write " << path;
    return path;
  }

 private:
  std::filesystem::path root_;
};

}  // namespace parley::config::testing
