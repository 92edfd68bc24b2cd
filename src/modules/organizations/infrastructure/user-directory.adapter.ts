import { Injectable } from '@nestjs/common';
import { UserDirectoryService } from '../../identity';
import { UserDirectory } from '../domain/organization-ports';

@Injectable()
export class IdentityUserDirectory extends UserDirectory {
  constructor(private readonly users: UserDirectoryService) {
    super();
  }

  exists(userId: string): Promise<boolean> {
    return this.users.exists(userId);
  }

  describe(userIds: string[]): Promise<Map<string, { name: string; email: string }>> {
    return this.users.describe(userIds);
  }
}
