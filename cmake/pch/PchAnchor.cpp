// Anchor TU for a precompiled-header target (cmake/PrecompiledHeaders.cmake).
