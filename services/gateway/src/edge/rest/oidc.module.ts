import { Module } from '@nestjs/common';
import type { JsonLogger } from '@switchyard/service-kit';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG, GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { UserIdentitiesRepository } from '../../workspace/people/user-identities.repository';
import { AuthModule } from '../auth/auth.module';
import { IDENTITY_PROVIDER, type IdentityProvider } from '../auth/oidc/identity-provider';
import { OpenIdIdentityProvider } from '../auth/oidc/openid-identity.provider';
import { OidcController } from './oidc.controller';

/** The OpenID Connect provider of GATEWAY_OIDC_*, or null (the routes answer 404 `oidc_unavailable`); the config allows all three or none. */
export function identityProviderOf(config: GatewayConfig, logger: JsonLogger): IdentityProvider | null {
  const { GATEWAY_OIDC_ISSUER: issuer, GATEWAY_OIDC_CLIENT_ID: clientId, GATEWAY_OIDC_CLIENT_SECRET: clientSecret } = config;
  if (issuer === undefined || clientId === undefined || clientSecret === undefined) return null;
  return new OpenIdIdentityProvider({ issuer, clientId, clientSecret }, logger);
}

/**
 * Sign-in with an external identity provider: the routes, the provider (`IDENTITY_PROVIDER`, the
 * extension point) and the identities linked to accounts. AuthModule brings the failure count
 * (CallerAuthenticator) and, through PeopleModule, accounts and sessions.
 */
@Module({
  imports: [AuthModule],
  controllers: [OidcController],
  providers: [UserIdentitiesRepository, { provide: IDENTITY_PROVIDER, inject: [GATEWAY_CONFIG, GATEWAY_LOGGER], useFactory: identityProviderOf }],
})
export class OidcModule {}
