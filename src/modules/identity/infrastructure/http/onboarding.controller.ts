import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { OnboardingUser, SetPasswordLink } from '../../../../../libs/contracts/src';
import { Authenticated, StaffOnly } from '../../../../platform/auth/decorators';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { NoBody } from '../../../../platform/http/validation';
import { OnboardingService } from '../../application/onboarding.service';
import { CreateUserBody, FindUserQuery, OnboardingUserResponse, SetPasswordLinkResponse } from './identity.dto';
import { presentOnboardingUser } from './presenters';

/** D15: staff provision Users; sign-up does not exist and no e-mail is sent. */
@ApiTags('onboarding')
@Authenticated()
@StaffOnly()
@Controller('onboarding/users')
export class OnboardingController {
  constructor(private readonly onboarding: OnboardingService) {}

  @Post()
  @Audit('user.create', 'user')
  @ApiCreatedResponse({ type: OnboardingUserResponse, description: 'The new User, without a password yet' })
  @ApiConflictResponse({ description: 'USER_ALREADY_EXISTS_ERROR (id) or USER_EMAIL_ALREADY_EXISTS_ERROR' })
  async create(@Body() body: CreateUserBody): Promise<OnboardingUser> {
    return presentOnboardingUser(await this.onboarding.createUser(body));
  }

  @Get()
  @ApiOkResponse({ type: OnboardingUserResponse, description: 'The User with this e-mail (any case)' })
  @ApiNotFoundResponse({ description: 'USER_NOT_FOUND_ERROR' })
  async find(@Query() query: FindUserQuery): Promise<OnboardingUser> {
    return presentOnboardingUser(await this.onboarding.findByEmail(query.email));
  }

  @Post(':userId/set-password-link')
  @Audit('user.set_password_link', 'user')
  @ApiCreatedResponse({ type: SetPasswordLinkResponse, description: 'A single-use link to set or reset the password' })
  @ApiNotFoundResponse({ description: 'USER_NOT_FOUND_ERROR' })
  async setPasswordLink(@Param('userId') userId: string, @NoBody() _body: unknown): Promise<SetPasswordLink> {
    const link = await this.onboarding.issueSetPasswordLink(userId);
    return { url: link.url, expiresAt: link.expiresAt.toISOString() };
  }

  @Post(':userId/revoke-sessions')
  @HttpCode(204)
  @Audit('user.revoke_sessions', 'user')
  @ApiNoContentResponse({ description: 'Every session of the User ended' })
  @ApiNotFoundResponse({ description: 'USER_NOT_FOUND_ERROR' })
  async revokeSessions(@Param('userId') userId: string, @NoBody() _body: unknown): Promise<void> {
    await this.onboarding.revokeSessions(userId);
  }
}
