import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'auth:isPublic';

/** Opts a route out of authentication (deny by default): only sign-in, set-password, health, docs. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
