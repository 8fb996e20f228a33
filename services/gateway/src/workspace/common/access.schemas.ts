import { z } from 'zod';
import { PERMISSION_NAMES, ROLES, type Permission } from './access.matrix';

/** A role of the matrix, in a request or a response. */
export const roleSchema = z.enum(ROLES);
/** A permission of the matrix: what a token's scopes list. */
export const permissionSchema = z.enum(PERMISSION_NAMES as [Permission, ...Permission[]]);
