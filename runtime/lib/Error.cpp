//===- Error.cpp - tk::Error helpers --------------------------------------===//

#include "tk/Error.h"

void tk::throwError(const std::string &message) { throw Error(message); }
