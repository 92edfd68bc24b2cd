import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { SessionResponse, SignInResponse } from '../../../../../libs/contracts/src';
import { Authenticated, CurrentPrincipal, Public } from '../../../../platform/auth/decorators';
import type { Principal } from '../../../../platform/auth/principal';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { NoBody } from '../../../../platform/http/validation';
import { AuditContext } from '../../../../platform/audit/audit-context';
import { SetPasswordService } from '../../application/set-password.service';
import { SignInService } from '../../application/sign-in.service';
import { SessionResult, SetPasswordBody, SignInBody, SignInResult } from './identity.dto';
import { presentSessionUser } from './presenters';
import { endSession, SESSION_COOKIE, startSession } from './session';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly signIn: SignInService,
    private readonly setPasswords: SetPasswordService,
    private readonly audit: AuditContext,
  ) {}

  @Post('sign-in/email')
  @Public()
  @HttpCode(200)
  @Audit('auth.sign_in', 'user')
  @ApiOkResponse({ type: SignInResult, description: 'Signed in: the session cookie is set' })
  @ApiUnauthorizedResponse({ description: 'INVALID_EMAIL_OR_PASSWORD_ERROR (same answer for an unknown e-mail)' })
  @ApiTooManyRequestsResponse({ description: 'RATE_LIMIT_EXCEEDED_ERROR: 10 failures for this e-mail from this client address, or 100 from this address, in 15 minutes (D11a)' })
  async signInWithEmail(@Body() body: SignInBody, @Req() request: Request): Promise<SignInResponse> {
    const user = await this.signIn.verify(body.email, body.password, request.ip ?? 'unknown');
    await startSession(request, user.id, user.passwordStamp!);
    this.audit.describe({ actorUserId: user.id, resourceId: user.id });
    return { user: presentSessionUser(user) };
  }

  @Post('sign-out')
  @HttpCode(204)
  @Authenticated()
  @Audit('auth.sign_out', 'user')
  @ApiNoContentResponse({ description: 'The session is ended and its cookie cleared' })
  async signOut(@NoBody() _body: unknown, @Req() request: Request, @Res({ passthrough: true }) response: Response, @CurrentPrincipal() principal: Principal): Promise<void> {
    this.audit.describe({ resourceId: principal.user.id });
    await endSession(request);
    response.clearCookie(SESSION_COOKIE, { path: '/' });
  }

  @Get('session')
  @Authenticated()
  @ApiOkResponse({ type: SessionResult, description: 'The signed-in User and when the session expires' })
  session(@Req() request: Request, @CurrentPrincipal() principal: Principal): SessionResponse {
    const expires = request.session.cookie.expires ?? new Date(Date.now() + (request.session.cookie.maxAge ?? 0));
    return { user: presentSessionUser(principal.user), expiresAt: new Date(expires).toISOString() };
  }

  @Post('set-password')
  @Public()
  @HttpCode(204)
  @Audit('auth.set_password', 'user')
  @ApiNoContentResponse({ description: 'Password set; every session of the User ended' })
  @ApiBadRequestResponse({ description: 'SET_PASSWORD_TOKEN_INVALID_ERROR (unknown, used or expired link) or VALIDATION_ERROR' })
  async setPassword(@Body() body: SetPasswordBody): Promise<void> {
    const userId = await this.setPasswords.setPassword(body.token, body.newPassword);
    this.audit.describe({ actorUserId: userId, resourceId: userId });
  }
}
