# lit configuration for the tk FileCheck tests: one file per pass or stage.
import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "tk"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".tk", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tk_obj_root, "test", "lit")

config.substitutions.append(("%examples", os.path.join(config.tk_src_root, "examples")))
config.substitutions.append(("%PATH%", config.environment["PATH"]))
# tk-run compiles through the JIT's kernel cache (docs/cache.md): keep the
# tests' entries in the build folder, not in the user's ~/.cache/tk.
config.environment["TK_CACHE_DIR"] = os.path.join(config.test_exec_root, "tk-cache")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.tk_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tools = ["tk-opt", "tkc", "tk-run", "tk-translate"]
llvm_config.add_tool_substitutions(
    [t for t in tools if os.path.exists(os.path.join(config.tk_tools_dir, t))],
    [config.tk_tools_dir])

# numpy computes the references of the interpreter runs (test/triton-compat).
try:
    import numpy  # noqa: F401
    config.available_features.add("numpy")
except ImportError:
    pass
# scipy.special: the references of the libdevice special functions.
try:
    import scipy.special  # noqa: F401
    config.available_features.add("scipy")
except ImportError:
    pass

# ptxas assembles our PTX on machines without a GPU.
ptxas = os.path.join(config.cuda_root, "bin", "ptxas")
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
# cuobjdump disassembles cubins (SASS) without a GPU.
cuobjdump = os.path.join(config.cuda_root, "bin", "cuobjdump")
if os.path.exists(cuobjdump):
    config.available_features.add("cuobjdump")
    config.substitutions.append(("%cuobjdump", cuobjdump))
# cuda.h, for tests that compile generated C (tkc --emit=header).
config.substitutions.append(("%cuda_include",
                             os.path.join(config.cuda_root, "include")))

# The example host programs and the kernels the build compiled for them
# (examples/CMakeLists.txt), for tests of what they do with damaged files.
kernels = os.path.join(config.tk_obj_root, "examples", "kernels")
config.substitutions.append(("%kernels", kernels))
if (os.path.exists(os.path.join(kernels, "add.json")) and
        os.path.exists(os.path.join(config.tk_tools_dir, "example-add"))):
    config.available_features.add("examples")
