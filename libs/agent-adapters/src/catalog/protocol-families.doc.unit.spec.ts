import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROTOCOL_FAMILIES } from '@switchyard/contracts';
import { PROTOCOL_FAMILY_CATALOG, RUNTIME_IDENTITY_CATALOG } from './runtime-identity.catalog';

const DOCS = path.resolve(__dirname, '../../../../docs/architecture');
const TABLE_BEGIN = '<!-- families table: generated from the catalog of libs/agent-adapters by catalog/protocol-families.doc.unit.spec.ts (SWITCHYARD_UPDATE_DOCS=1 rewrites it) -->';
const TABLE_END = '<!-- end of the generated families table -->';
const COLUMNS = ['Family', 'Identities (command)', 'Launch', 'Prompt delivery', 'Resume', 'Cancel', 'Usage source', 'Tested with'];

const row = (cells: readonly string[]): string => `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;

/** The doc's family table, from the catalog: one row per family, its identities with the command line that starts each. */
function renderFamiliesTable(): string {
  const rows = PROTOCOL_FAMILIES.map((family) => {
    const { description, identities } = PROTOCOL_FAMILY_CATALOG[family];
    const names = identities.map((identity) => `${identity.displayName} (\`${[identity.commandName, ...identity.launchArgs].join(' ')}\`)`).join(', ');
    return row([`\`${family}\``, names, description.launch, description.promptDelivery, description.resume, description.cancel, description.usage, description.testedWith]);
  });
  return [row(COLUMNS), `|${COLUMNS.map(() => '---').join('|')}|`, ...rows].join('\n');
}

function generatedBlock(document: string): string {
  const begin = document.indexOf(TABLE_BEGIN);
  const end = document.indexOf(TABLE_END);
  if (begin === -1 || end < begin) throw new Error('protocol-families.md has lost the markers of its generated families table');
  return document.slice(begin + TABLE_BEGIN.length, end).trim();
}

describe('docs/architecture/protocol-families.md', () => {
  const file = path.join(DOCS, 'protocol-families.md');

  it('shows the families table the catalog renders (launch flags, identities and their commands included)', () => {
    let document = readFileSync(file, 'utf8');
    const table = renderFamiliesTable();
    if (process.env['SWITCHYARD_UPDATE_DOCS'] === '1' && generatedBlock(document) !== table) {
      document = document.replace(`${TABLE_BEGIN}\n${generatedBlock(document)}\n`, `${TABLE_BEGIN}\n${table}\n`);
      writeFileSync(file, document);
    }
    expect(generatedBlock(document)).toBe(table);
  });

  it('counts, in daemon.md, the identities and families the catalog has', () => {
    const count = `${RUNTIME_IDENTITY_CATALOG.length} identities across ${PROTOCOL_FAMILIES.length} families`;
    expect(readFileSync(path.join(DOCS, 'daemon.md'), 'utf8')).toContain(count);
  });
});
