// Pyodide's trimmed standard library as bytecode, for the Makefile's vendor rule (through
// protocol/offline/stdlib.py):
//
//   node protocol/offline/bytecode.mjs SOURCE.zip TARGET.zip
//
// Only Pyodide's own Python writes bytecode its Python reads (the magic number is the version's),
// so the compiling runs in Pyodide, from node_modules/pyodide, here in node: stdlib.py's
// compile_zip, the same code for every module. Fixed hash seed, so that the sets among a
// module's constants come out in the same order each time: the same sources give the same bytes.

import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const [source, target] = process.argv.slice(2);
if (!source || !target) {
  console.error("usage: node protocol/offline/bytecode.mjs SOURCE.zip TARGET.zip");
  process.exit(2);
}
const npmPyodide = new URL("../../node_modules/pyodide/", import.meta.url);
const { loadPyodide } = await import(new URL("pyodide.mjs", npmPyodide).href);
const pyodide = await loadPyodide({
  indexURL: fileURLToPath(npmPyodide),
  // PYTHONNODEBUGRANGES: line numbers without columns, a third fewer bytes for the same tracebacks' lines
  env: { PYTHONHASHSEED: "0", PYTHONNODEBUGRANGES: "1" },
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});
pyodide.FS.mkdirTree("/build");
pyodide.FS.writeFile("/build/stdlib.py", readFileSync(new URL("stdlib.py", import.meta.url)));
pyodide.FS.writeFile("/build/source.zip", readFileSync(source));
pyodide.runPython(`
import sys
sys.path.insert(0, "/build")
import stdlib
stdlib.compile_zip("/build/source.zip", "/build/target.zip")
`);
writeFileSync(target, pyodide.FS.readFile("/build/target.zip"));
