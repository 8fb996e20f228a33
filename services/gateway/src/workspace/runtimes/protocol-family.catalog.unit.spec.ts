import { PROTOCOL_FAMILY_CATALOG } from '@switchyard/agent-adapters/catalog';
import { PROTOCOL_FAMILIES } from '@switchyard/contracts';
import { protocolFamilyView } from './protocol-family.catalog';
import { protocolFamilyViewSchema } from './protocol-family.schemas';

describe('the families the gateway serves', () => {
  it.each(PROTOCOL_FAMILIES)('%s: the description and identities of its folder in libs/agent-adapters, as the schema says', (family) => {
    const view = protocolFamilyView(family);
    const { description, identities } = PROTOCOL_FAMILY_CATALOG[family];
    expect(protocolFamilyViewSchema.parse(view)).toEqual(view);
    expect(view).toMatchObject({
      displayName: description.displayName,
      adapter: description.adapter,
      launch: description.launch,
      promptDelivery: description.promptDelivery,
      resume: description.resume,
      cancel: description.cancel,
      usage: description.usage,
    });
    const facts = (identity: { identity: string; commandName: string; launchArgs: readonly string[]; mcpDelivery: string; verification: string }) => [
      identity.identity,
      identity.commandName,
      [...identity.launchArgs],
      identity.mcpDelivery,
      identity.verification,
    ];
    expect(view.identities.map(facts)).toEqual(identities.map(facts));
    expect(view.runtimes).toEqual(identities.map((identity) => identity.displayName));
  });
});
