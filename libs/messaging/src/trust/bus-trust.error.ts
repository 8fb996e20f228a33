/**
 * Bus key material or a grant that cannot be used. Kept free of the contracts lib: the jest
 * bootstrap loads the authority code outside the module map, where aliases do not resolve.
 */
export class BusTrustError extends Error {
  override readonly name = 'BusTrustError';
}
