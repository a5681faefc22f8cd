// Where a program finds the files it reads at run time (the RTL sources, the regression
// matrices), the same way installed and in a build tree: from its own location.
//   installed:   PREFIX/bin/PROGRAM  ->  PREFIX/share/otpu/{rtl,regress}/
//   build tree:  no share/otpu beside it ->  the checkout it was built from ({rtl,regress}/)
#pragma once

#include <string>

namespace otpu {

// This program's own file (/proc/self/exe), "" when it cannot be read.
std::string ExecutablePath();

// The directory holding rtl/ and regress/: PREFIX/share/otpu when this program is installed,
// else the source tree of the build.
std::string DataDir();

}  // namespace otpu
