// Internal error type: backends throw wx::Error; api.cpp turns it into a status + thread message.
#pragma once
#include <stdexcept>
#include <string>

#include "wixlib.h"

namespace wx {

class Error : public std::runtime_error {
 public:
  Error(wx_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  wx_status status() const { return status_; }

 private:
  wx_status status_;
};

[[noreturn]] inline void fail(wx_status status, const std::string& message) { throw Error(status, message); }

inline bool is_reserved_key32(uint32_t k) { return k >= WX_KEY32_TOMBSTONE; }

}  // namespace wx
