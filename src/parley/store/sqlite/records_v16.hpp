// Schema version 16: seed 002's records refer to rows and to the log (docs/store.md "Records refer
// to rows and to the log"). Kept apart from schema.cpp's list so the version it gets there is the
// only thing tied to it.
#pragma once

namespace parley::sqlite {

// The migration to version 16 (each cut adds its part, in one transaction).
inline constexpr const char* kV16RecordsSql = "";

}  // namespace parley::sqlite
