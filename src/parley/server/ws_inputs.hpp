// The input packets of the PubChan (drive_dlg_by_user_msg, drive_dialog_by_user_answer, interrupt,
// resume, declare_subdialog_dead): each calls the engine and succeeds once the input is durable.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/server/server_context.hpp"

namespace parley::server {

bool is_input_packet(std::string_view type);
// `packet` has been validated against the protocol table. Errors name the field when one is at fault.
boost::asio::awaitable<result<void>> run_input(server_context& context, std::string type, boost::json::object packet);
// The `code` of an error packet for an engine error.
const char* wire_error_code(errc code);

}  // namespace parley::server
