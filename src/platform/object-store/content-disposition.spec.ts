import fc from 'fast-check';
import { contentDisposition, safeFilename } from './content-disposition';

describe('download file names', () => {
  it('whatever the name, the header is one `attachment; filename="..."` parameter of safe ASCII, naming no path', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (name) => {
        const header = contentDisposition(name);
        const match = /^attachment; filename="([A-Za-z0-9 .,\-_+@#&=~]*)"$/.exec(header);
        expect(match).not.toBeNull();
        const value = match![1];
        expect(value).not.toMatch(/[/\\"\r\n\0]/);
        expect(value === '' || value === '.' || value === '..').toBe(false);
      }),
    );
  });

  it('a name of combining marks alone, or of dots, is `file`', () => {
    expect(contentDisposition('\u0301\u0301')).toBe('attachment; filename="file"');
    expect(contentDisposition(' .. ')).toBe('attachment; filename="file"');
  });

  it('keeps the last path segment of a name', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 1, maxLength: 5 }), fc.constantFrom('/', '\\'), (segments, separator) => {
        expect(safeFilename(['..', ...segments].join(separator))).toBe(segments[segments.length - 1]);
      }),
    );
  });
});
