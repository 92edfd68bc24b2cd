import { Injectable } from '@nestjs/common';
import { UserRepository } from '../domain/identity-ports';

/** What other modules may know of Users: existence and display names, in one query. */
@Injectable()
export class UserDirectoryService {
  constructor(private readonly users: UserRepository) {}

  async exists(userId: string): Promise<boolean> {
    return (await this.users.findById(userId)) !== null;
  }

  async describe(userIds: string[]): Promise<Map<string, { name: string; email: string }>> {
    const users = await this.users.findByIds([...new Set(userIds)]);
    return new Map(users.map((user) => [user.id, { name: user.name, email: user.email }]));
  }
}
