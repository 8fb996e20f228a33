import { PROTOCOL_FAMILY_CATALOG, type RuntimeIdentityDescriptor } from '@switchyard/agent-adapters/catalog';
import type { ProtocolFamily } from '@switchyard/contracts';
import type { ProtocolFamilyView, RuntimeIdentityView } from './protocol-family.schemas';

function identityView(descriptor: RuntimeIdentityDescriptor): RuntimeIdentityView {
  return {
    identity: descriptor.identity,
    displayName: descriptor.displayName,
    commandName: descriptor.commandName,
    launchArgs: [...descriptor.launchArgs],
    provider: descriptor.provider,
    contextFileName: descriptor.contextFileName,
    skillsDirectory: descriptor.skillsDirectory,
    mcpDelivery: descriptor.mcpDelivery,
    inlineRuntimeBrief: descriptor.inlineRuntimeBrief,
    modelDiscovery: descriptor.modelDiscovery ? [...descriptor.modelDiscovery.args] : null,
    acpResumeMethod: descriptor.acpResumeMethod ?? null,
    verification: descriptor.verification,
  };
}

/**
 * One family as the API shows it: its description and the built-in identities that speak it, as
 * the family's folder in `libs/agent-adapters` states them (the data-only catalog entry point: no
 * adapter code reaches the gateway). docs/architecture/protocol-families.md is checked against
 * the same data.
 */
export function protocolFamilyView(family: ProtocolFamily): ProtocolFamilyView {
  const { description, identities } = PROTOCOL_FAMILY_CATALOG[family];
  const { displayName, adapter, launch, promptDelivery, resume, cancel, usage } = description;
  const views = identities.map(identityView);
  return { family, displayName, runtimes: views.map((identity) => identity.displayName), adapter, launch, promptDelivery, resume, cancel, usage, identities: views };
}
