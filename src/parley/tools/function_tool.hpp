// A tool made from a spec and a synchronous function: the shape of every builtin that does its
// work without awaiting anything.
#pragma once

#include <functional>
#include <utility>

#include "parley/tools/tool.hpp"

namespace parley::tools {

class function_tool final : public tool {
 public:
  using body = std::function<tool_outcome(const boost::json::object& args, const tool_context& ctx)>;

  enum class effects { outside_log, none };

  function_tool(tool_spec spec, body fn, effects kind = effects::outside_log)
      : spec_(std::move(spec)), body_(std::move(fn)), effects_(kind) {}

  const tool_spec& spec() const override { return spec_; }
  boost::asio::awaitable<tool_outcome> invoke(const boost::json::object& args, const tool_context& ctx) override {
    co_return body_(args, ctx);
  }
  bool has_effects() const override { return effects_ == effects::outside_log; }

 private:
  tool_spec spec_;
  body body_;
  effects effects_;
};

}  // namespace parley::tools
