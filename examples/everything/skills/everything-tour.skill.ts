// A skill served through the Skills extension (SEP-2640), written in code: its SKILL.md and one reference file in a
// subfolder. Hosts list it with skills/list, read its files with resources/read and browse it with
// resources/directory/read (the sep-2640-skills-* scenarios).
import { skill } from 'mcp-kiln';

const SKILL_MD = `---
name: everything-tour
description: Walk through the fixtures of the Kiln everything server and what each conformance scenario checks.
license: Apache-2.0
metadata:
  author: kiln
---

# Touring the everything server

Use this skill when you need to exercise an MCP server feature end to end against a known-good fixture.

1. Call \`tools/list\` and pick a \`test_*\` tool; each one answers exactly as the official conformance suite expects.
2. For argument validation, call \`json_schema_2020_12_tool\` with and without a phone number: its input is a raw
   JSON Schema 2020-12 with conditional requirements.
3. For header parameters, call \`test_header_parameters\` over HTTP: the client mirrors \`region\` into
   \`Mcp-Param-Region\`.

See [the fixture reference](references/FIXTURES.md) for every fixture by scenario.
`;

const FIXTURES_MD = `# Fixtures by scenario

| scenario | fixture |
| --- | --- |
| tools-call-simple-text | test_simple_text |
| tools-call-with-progress | test_tool_with_progress |
| input-required-result-* | test_input_required_result_* |
| json-schema-2020-12 | json_schema_2020_12_tool |
| http-custom-header-server-validation | test_header_parameters |
| sep-2640-skills-* | this skill |
`;

export const EverythingTourSkill = skill('everything-tour', {
  'SKILL.md': SKILL_MD,
  'references/FIXTURES.md': FIXTURES_MD,
});
