// Prints a dialog as it happens: thinking dimmed, saying plain, tool calls and results as
// one-line notes. When another dialog of the tree starts streaming, a line names its member
// ("@clerk (subdialog 0192…)"), so a tree at work reads as who says what. Colours only when
// stdout is a terminal.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "parley/engine/observer.hpp"

namespace parley::cli {

class terminal_printer final : public engine::engine_observer {
 public:
  explicit terminal_printer(bool quiet);
  void on_stream(const engine::stream_event& ev) override;
  void on_event(const event& ev) override;
  // How a dialog is named in those lines: "@member" or "@member (subdialog ID)".
  void set_namer(std::function<std::string(std::string_view dialog_id)> namer) { namer_ = std::move(namer); }

 private:
  void write(const std::string& text) const;
  void colour(const char* sequence) const;
  bool quiet_;
  bool colour_;
  void label(std::string_view dialog_id);
  void say(std::string_view text);
  bool line_open_ = false;
  std::function<std::string(std::string_view)> namer_;
  std::string last_dialog_;  // the dialog that streamed last
  bool holding_ = false;     // the saying's start may still be a marker
  std::string held_;
};

}  // namespace parley::cli
