import fc from 'fast-check';
import { changeTodo, Todo, todoText } from './todo';

const base: Todo = { entityId: 'e', id: 't', text: 'x', completedAt: null, link: null, createdAt: new Date(0), updatedAt: new Date(0) };

describe('To-do state table (spec)', () => {
  it('after any sequence of PATCHes: completed iff the last `completed` sent was true; completedAt is the time of the first completion since the last reopening', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ completed: fc.option(fc.boolean(), { nil: undefined }), at: fc.integer({ min: 1, max: 1e9 }) }), { maxLength: 30 }), (steps) => {
        let todo = base;
        let expected: Date | null = null;
        for (const step of steps) {
          const now = new Date(step.at);
          todo = changeTodo(todo, step.completed === undefined ? { text: 'y' } : { completed: step.completed }, now);
          if (step.completed === true && expected === null) expected = now;
          if (step.completed === false) expected = null;
          expect(todo.completedAt).toEqual(expected);
          expect(todo.updatedAt).toEqual(now);
          expect(todo.link).toBeNull();
        }
      }),
    );
  });

  it('text is stored trimmed and taken iff 1 to 500 characters remain', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 600 }), fc.string({ unit: fc.constantFrom(' ', '\n', '\t'), maxLength: 5 }), (core, pad) => {
        const text = `${pad}${core}${pad}`;
        const trimmed = text.trim();
        const length = [...trimmed].length;
        if (length >= 1 && length <= 500) expect(todoText(text)).toBe(trimmed);
        else expect(() => todoText(text)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
      }),
    );
  });
});
