import { setPasswordUrl } from './onboarding.service';

describe('setPasswordUrl (D15)', () => {
  it.each([
    ['http://app.test', 'http://app.test/set-password?token=abc'],
    ['http://app.test/', 'http://app.test/set-password?token=abc'],
    ['https://host.example/erp', 'https://host.example/erp/set-password?token=abc'],
    ['https://host.example/erp/', 'https://host.example/erp/set-password?token=abc'],
    ['http://localhost:3000', 'http://localhost:3000/set-password?token=abc'],
  ])('puts the page under %s', (base, expected) => {
    expect(setPasswordUrl(base, 'abc')).toBe(expected);
  });
});
