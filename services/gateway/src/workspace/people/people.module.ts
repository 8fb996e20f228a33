import { Module } from '@nestjs/common';
import { AccountService } from './account.service';
import { InvitationsRepository } from './invitations.repository';
import { MembersRepository } from './members.repository';
import { MembershipService } from './membership.service';
import { OneTimeCodesRepository } from './one-time-codes.repository';
import { SessionsRepository } from './sessions.repository';
import { UsersRepository } from './users.repository';

/** People: accounts, sessions, memberships, invitations, one-time codes. */
@Module({
  providers: [UsersRepository, MembersRepository, SessionsRepository, InvitationsRepository, OneTimeCodesRepository, AccountService, MembershipService],
  exports: [UsersRepository, MembersRepository, SessionsRepository, InvitationsRepository, OneTimeCodesRepository, AccountService, MembershipService],
})
export class PeopleModule {}
