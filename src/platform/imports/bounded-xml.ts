import { SaxesParser } from 'saxes';

/** An element as a bounded read keeps it: its local name (no prefix), the kept child elements and its text. */
export interface XmlElement {
  name: string;
  children: XmlElement[];
  text: string;
}

/**
 * What a bounded read keeps under an element, by local name. A leaf (`maxLength`) keeps its text,
 * at most that many characters once trimmed; an inner rule keeps the children it names. An
 * element named nowhere is read (well-formedness, depth, count) but not kept, nor its text.
 * `maxOccurs`: how many of that name one parent may hold; beyond it the file is refused. Without
 * it the first is kept and later ones are read but not kept (a reader reads the first).
 */
export type XmlKeepRule = { children: XmlKeep; maxOccurs?: number } | { maxLength: number; maxOccurs?: number };
export interface XmlKeep {
  readonly [localName: string]: XmlKeepRule;
}

export interface XmlBounds {
  /** What to keep, from the root element down (by the root's name); a root it does not name is kept without children. */
  keep: XmlKeep;
  /** Deepest nesting of elements, the root at depth 1. */
  maxDepth: number;
  /** Most elements in the whole file, kept or not. */
  maxElements: number;
}

interface Position {
  line: number;
  column: number;
}

/**
 * Why a bounded read refused the file. `within`: the kept elements enclosing the place, root
 * first (for `length` and `occurrences` the offending element is the last).
 */
export type XmlRefusal = Position & { within: XmlElement[] } & (
    | { reason: 'depth'; limit: number }
    | { reason: 'elements'; limit: number }
    | { reason: 'length'; limit: number }
    | { reason: 'occurrences'; limit: number }
    | { reason: 'doctype' }
    | { reason: 'malformed'; message: string }
  );

interface Frame {
  element: XmlElement | null;
  rule: XmlKeepRule | null;
  counts: Map<string, number>;
}

/** Whitespace around a leaf's text that is read before its length is judged. */
const LEAF_SLACK = 1024;

class Refused extends Error {
  constructor(readonly refusal: XmlRefusal) {
    super(refusal.reason);
  }
}

/**
 * D2b: reads XML as a stream (saxes: strict, no DTD processing; predefined entities and
 * character references only) within bounds, keeping only the elements `bounds.keep` names (in
 * an import-parsing worker, platform/imports/parse-pool.ts). Memory is the kept elements and
 * one open path of at most `maxDepth`, whatever the file holds. Refusals come from `refuse`,
 * which turns a refusal into the caller's error (a module's 400 naming its field). Returns the
 * document: its one child is the root element.
 */
export function readBoundedXml(text: string, bounds: XmlBounds, refuse: (refusal: XmlRefusal) => Error): XmlElement {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const document: XmlElement = { name: '#document', children: [], text: '' };
  const root: Frame = { element: document, rule: null, counts: new Map() };
  const stack: Frame[] = [root];
  let elements = 0;
  const at = (): Position => ({ line: parser.line, column: parser.column });
  const within = () => stack.map((frame) => frame.element).filter((element): element is XmlElement => element !== null && element !== document);
  const stop = (refusal: XmlRefusal): never => {
    throw new Refused(refusal);
  };

  parser.on('opentag', (tag) => {
    elements++;
    if (stack.length > bounds.maxDepth) stop({ reason: 'depth', limit: bounds.maxDepth, within: within(), ...at() });
    if (elements > bounds.maxElements) stop({ reason: 'elements', limit: bounds.maxElements, within: within(), ...at() });
    const colon = tag.name.indexOf(':');
    const name = colon < 0 ? tag.name : tag.name.slice(colon + 1);
    const parent = stack[stack.length - 1];
    let rule: XmlKeepRule | null = null;
    let keep = false;
    if (parent === root) {
      // The root element, kept by name whatever it is (the reader says which roots it takes).
      rule = Object.prototype.hasOwnProperty.call(bounds.keep, name) ? bounds.keep[name] : null;
      keep = parent.element!.children.length === 0;
    } else if (parent.element !== null && parent.rule !== null && 'children' in parent.rule) {
      rule = Object.prototype.hasOwnProperty.call(parent.rule.children, name) ? parent.rule.children[name] : null;
      if (rule !== null) {
        const count = (parent.counts.get(name) ?? 0) + 1;
        parent.counts.set(name, count);
        if (count > (rule.maxOccurs ?? 1)) {
          if (rule.maxOccurs !== undefined) {
            const element: XmlElement = { name, children: [], text: '' };
            stop({ reason: 'occurrences', limit: rule.maxOccurs, within: [...within(), element], ...at() });
          }
          rule = null;
        } else keep = true;
      }
    }
    if (!keep) {
      stack.push({ element: null, rule: null, counts: new Map() });
      return;
    }
    const element: XmlElement = { name, children: [], text: '' };
    parent.element!.children.push(element);
    stack.push({ element, rule, counts: new Map() });
  });
  parser.on('closetag', () => {
    const frame = stack.pop()!;
    if (frame.element && frame.rule && 'maxLength' in frame.rule) {
      frame.element.text = frame.element.text.trim();
      if (frame.element.text.length > frame.rule.maxLength) stop({ reason: 'length', limit: frame.rule.maxLength, within: [...within(), frame.element], ...at() });
    }
  });
  const addText = (chunk: string) => {
    const frame = stack[stack.length - 1];
    if (!frame.element || !frame.rule || !('maxLength' in frame.rule)) return;
    frame.element.text += chunk;
    if (frame.element.text.length > frame.rule.maxLength + LEAF_SLACK && frame.element.text.trim().length > frame.rule.maxLength) {
      stop({ reason: 'length', limit: frame.rule.maxLength, within: within(), ...at() });
    }
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('doctype', () => stop({ reason: 'doctype', within: within(), ...at() }));

  try {
    // A bound passed stops the parse where it is: the handlers throw from inside write().
    parser.write(text).close();
  } catch (error) {
    if (error instanceof Refused) throw refuse(error.refusal);
    const message = (error as Error).message.replace(/^[^:]*:\d+:\d+: /, '');
    throw refuse({ reason: 'malformed', message, within: within(), ...at() });
  }
  return document;
}
