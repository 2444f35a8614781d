// The translation unit that owns a precompiled header (cmake/precompiled_headers.cmake).
