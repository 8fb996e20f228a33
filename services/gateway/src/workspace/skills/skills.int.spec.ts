import { SKILL_LIMITS, skillContentHash } from '@switchyard/contracts';
import { GatewayTestKit, pluck, type TestWorkspace } from '../../gateway-test.spec-helper';

const skillMarkdown = (name: string, body = 'Review the diff line by line.') => `---\nname: ${name}\ndescription: Careful code review\n---\n\n${body}\n`;

describe('skills API (real NATS + Postgres)', () => {
  let kit: GatewayTestKit;
  let alpha: TestWorkspace;
  let beta: TestWorkspace;

  beforeAll(async () => {
    kit = await GatewayTestKit.start();
    alpha = await kit.workspace('Alpha');
    beta = await kit.workspace('Beta');
  });
  afterAll(async () => {
    await kit?.stop();
  });

  it('creates a skill as version 1 with its content hash and front matter description, and reads its files back', async () => {
    const files = { 'SKILL.md': skillMarkdown('review'), 'checklists/security.md': '- no secrets in logs\n' };
    const created = await kit.as(alpha.token).post('/api/skills', { name: 'review', files });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'review',
      description: 'Careful code review',
      version: 1,
      contentHash: skillContentHash(files),
      fileCount: 2,
      sizeBytes: Buffer.byteLength(files['SKILL.md']) + Buffer.byteLength(files['checklists/security.md']),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.id as string;
    expect((await kit.as(alpha.token).get(`/api/skills/${id}`)).body).toEqual({ ...created.body, files });
    expect(pluck((await kit.as(alpha.token).get('/api/skills')).body.skills, 'name')).toContain('review');
  });

  it('makes a new immutable version on a changed bundle, and none when the bundle is the same', async () => {
    const first = { 'SKILL.md': skillMarkdown('triage') };
    const created = (await kit.as(alpha.token).post('/api/skills', { name: 'triage', files: first })).body;
    const same = await kit.as(alpha.token).patch(`/api/skills/${created.id as string}`, { files: first });
    expect(same.body).toMatchObject({ version: 1, contentHash: created.contentHash });

    const second = { 'SKILL.md': skillMarkdown('triage', 'Label every issue.') };
    const changed = await kit.as(alpha.token).patch(`/api/skills/${created.id as string}`, { files: second });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ version: 2, contentHash: skillContentHash(second) });
    expect(changed.body.contentHash).not.toBe(created.contentHash);
    const versions = await kit.query<{ version: number; content_hash: string }>('select version, content_hash from skill_version where skill_id = $1 order by version', [created.id]);
    expect(versions).toEqual([
      { version: 1, content_hash: created.contentHash },
      { version: 2, content_hash: skillContentHash(second) },
    ]);
    expect((await kit.as(alpha.token).get(`/api/skills/${created.id as string}`)).body.files).toEqual(second);
  });

  it('refuses an unsafe or oversized bundle with 400 invalid_skill_bundle listing every problem, writing nothing', async () => {
    const before = { skills: await kit.count('skill'), versions: await kit.count('skill_version') };
    const cases: Array<{ files: Record<string, string>; codes: string[] }> = [
      { files: { 'README.md': 'no entry file' }, codes: ['missing_entry_file'] },
      { files: { 'SKILL.md': 'x', '../escape.md': 'x' }, codes: ['unsafe_path'] },
      { files: { 'SKILL.md': 'x', '/etc/passwd': 'x' }, codes: ['unsafe_path'] },
      { files: { 'SKILL.md': 'x', 'a/./b.md': 'x', 'c\\d.md': 'x' }, codes: ['unsafe_path', 'unsafe_path'] },
      { files: { 'SKILL.md': 'x', 'Notes.md': 'x', 'notes.md': 'y' }, codes: ['duplicate_path'] },
      { files: { 'SKILL.md': 'x'.repeat(SKILL_LIMITS.maxFileBytes + 1) }, codes: ['file_too_large'] },
      { files: Object.fromEntries([['SKILL.md', 'x'], ...Array.from({ length: SKILL_LIMITS.maxFiles }, (_, index) => [`f${index}.md`, 'x'])]), codes: ['too_many_files'] },
      { files: { 'SKILL.md': '---\nname: someone-else\n---\nbody' }, codes: ['front_matter_name_mismatch'] },
      { files: { 'SKILL.md': '---\nname: [unclosed\n---\nbody' }, codes: ['invalid_front_matter'] },
    ];
    for (const { files, codes } of cases) {
      const response = await kit.as(alpha.token).post('/api/skills', { name: 'bad', files });
      expect({ paths: Object.keys(files).slice(0, 3), status: response.status, code: response.body.error?.code, problems: pluck(response.body.error?.details?.problems ?? [], 'code') }).toEqual({
        paths: Object.keys(files).slice(0, 3),
        status: 400,
        code: 'invalid_skill_bundle',
        problems: codes,
      });
    }
    const bigFile = 'y'.repeat(SKILL_LIMITS.maxFileBytes);
    const tooLarge = await kit.as(alpha.token).post('/api/skills', { name: 'bad', files: { 'SKILL.md': bigFile, 'b.md': bigFile, 'c.md': 'z' } });
    expect(pluck(tooLarge.body.error.details.problems, 'code')).toEqual(['bundle_too_large']);
    expect({ skills: await kit.count('skill'), versions: await kit.count('skill_version') }).toEqual(before);
  });

  it('refuses a bad name or a malformed body with 400 validation_failed', async () => {
    const bodies = [
      { name: '../x', files: { 'SKILL.md': 'x' } },
      { name: 'ok' },
      { name: 'ok', files: { 'SKILL.md': 'x' }, extra: 1 },
      { name: 'ok', files: { 'SKILL.md': 3 } },
      { name: 'ok', files: { 'SKILL.md': 'nul \u0000 byte' } },
      { name: 'ok', files: { 'SKILL.md': 'lone \ud800 surrogate' } },
    ];
    for (const body of bodies) {
      const response = await kit.as(alpha.token).post('/api/skills', body);
      expect({ body: JSON.stringify(body), status: response.status, code: response.body.error?.code }).toEqual({ body: JSON.stringify(body), status: 400, code: 'validation_failed' });
    }
  });

  it('refuses a second skill of the same name in a workspace with 409, but not in another workspace', async () => {
    const files = { 'SKILL.md': 'Twin.' };
    expect((await kit.as(alpha.token).post('/api/skills', { name: 'twin', files })).status).toBe(201);
    const twin = await kit.as(alpha.token).post('/api/skills', { name: 'twin', files });
    expect(twin.status).toBe(409);
    expect(twin.body.error.code).toBe('skill_name_taken');
    expect((await kit.as(beta.token).post('/api/skills', { name: 'twin', files })).status).toBe(201);
  });

  it('keeps workspaces apart and deletes a skill with its versions', async () => {
    const skill = (await kit.as(alpha.token).post('/api/skills', { name: 'alpha-only', files: { 'SKILL.md': 'Mine.' } })).body;
    const path = `/api/skills/${skill.id as string}`;
    expect(pluck((await kit.as(beta.token).get('/api/skills')).body.skills, 'id')).not.toContain(skill.id);
    expect((await kit.as(beta.token).get(path)).status).toBe(404);
    expect((await kit.as(beta.token).patch(path, { files: { 'SKILL.md': 'Stolen.' } })).status).toBe(404);
    expect((await kit.as(beta.token).delete(path)).status).toBe(404);

    expect((await kit.as(alpha.token).delete(path)).status).toBe(204);
    expect((await kit.as(alpha.token).get(path)).status).toBe(404);
    expect(await kit.query('select 1 from skill_version where skill_id = $1', [skill.id])).toEqual([]);
    expect((await kit.as(alpha.token).delete(path)).status).toBe(404);
  });
});
