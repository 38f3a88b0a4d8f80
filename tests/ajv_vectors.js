// Runs the published test vectors (schemas/tests) through ajv 8, a second, independent
// validator: every vector must get the same verdict as under valijson.
'use strict';
const fs = require('fs');
const path = require('path');
const Ajv = require('ajv');

const dir = process.argv[2];
const ajv = new Ajv({ strict: false, allErrors: true });
for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.schema.json'))) {
  const schema = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  ajv.addSchema(schema);                                // known by its $id
  ajv.addSchema({ ...schema, $id: name });              // and by its file name, as vectors name it
}
let passed = 0;
let failed = 0;
for (const file of fs.readdirSync(path.join(dir, 'tests')).filter((f) => f.endsWith('.json'))) {
  for (const group of JSON.parse(fs.readFileSync(path.join(dir, 'tests', file), 'utf8'))) {
    const validate = ajv.compile(group.schema);
    for (const test of group.tests) {
      const valid = validate(test.data);
      if (valid === test.valid) {
        passed++;
      } else {
        failed++;
        console.log(`FAIL ${file}: ${group.description} / ${test.description}: ajv says ${valid ? 'valid' : 'invalid'}` +
                    (validate.errors ? ' ' + JSON.stringify(validate.errors[0]) : ''));
      }
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
