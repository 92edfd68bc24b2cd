import fc from 'fast-check';
import { ModelFailure } from '../application/gateway-ports';
import { parseCompletion } from './openai-chat-model';

describe('parseCompletion', () => {
  it('reads the first choice: content and tool calls', () => {
    const body = {
      choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_x', arguments: '{"a":1}' } }] } }],
    };
    expect(parseCompletion(JSON.stringify(body))).toEqual({ content: null, toolCalls: [{ id: 'c1', name: 'get_x', arguments: '{"a":1}' }] });
    expect(parseCompletion(JSON.stringify({ choices: [{ message: { content: 'hi' } }] }))).toEqual({ content: 'hi', toolCalls: [] });
    // Arguments sent as an object are kept as JSON text.
    const objectArgs = { choices: [{ message: { content: null, tool_calls: [{ id: 'c', function: { name: 'n', arguments: { a: 1 } } }] } }] };
    expect(parseCompletion(JSON.stringify(objectArgs)).toolCalls[0].arguments).toBe('{"a":1}');
  });

  it('keeps a NUL the model sent as U+FFFD (PostgreSQL text cannot hold it)', () => {
    const body = { choices: [{ message: { content: 'a\u0000b', tool_calls: [{ id: 'c\u0000', function: { name: 'n', arguments: '{"a":"\u0000"}' } }] } }] };
    const parsed = parseCompletion(JSON.stringify(body));
    expect(parsed.content).toBe('a\uFFFDb');
    expect(parsed.toolCalls[0]).toEqual({ id: 'c\uFFFD', name: 'n', arguments: '{"a":"\uFFFD"}' });
  });

  it.each([
    ['not json', '{"choices": ['],
    ['no choices', '{}'],
    ['empty choices', '{"choices": []}'],
    ['content not a string', '{"choices": [{"message": {"content": 5}}]}'],
    ['tool_calls not an array', '{"choices": [{"message": {"content": null, "tool_calls": {}}}]}'],
    ['a call without an id', '{"choices": [{"message": {"tool_calls": [{"function": {"name": "x"}}]}}]}'],
    ['65 tool calls at once', JSON.stringify({ choices: [{ message: { tool_calls: Array.from({ length: 65 }, (_, i) => ({ id: `c${i}`, function: { name: 'x', arguments: '{}' } })) } }] })],
  ])('refuses %s with ModelFailure', (_label, text) => {
    expect(() => parseCompletion(text)).toThrow(ModelFailure);
  });

  it('answers or throws ModelFailure, never anything else', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.anything().map((v) => JSON.stringify({ choices: [{ message: v }] }) ?? '')), (text) => {
        try {
          parseCompletion(text);
        } catch (error) {
          expect(error).toBeInstanceOf(ModelFailure);
        }
      }),
    );
  });
});
