// Prints a dialog as it happens: thinking dimmed, saying plain, tool calls and results as
// one-line notes. Colours only when stdout is a terminal.
#pragma once

#include <string>

#include "parley/engine/observer.hpp"

namespace parley::cli {

class terminal_printer final : public engine::engine_observer {
 public:
  explicit terminal_printer(bool quiet);
  void on_stream(const engine::stream_event& ev) override;
  void on_event(const event& ev) override;

 private:
  void write(const std::string& text) const;
  bool quiet_;
  bool colour_;
  bool line_open_ = false;
};

}  // namespace parley::cli
