import { useMemo } from 'react';
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// Our own instance: options set here do not leak into other pages' markdown.
const markdown = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    // Links lead out of the app: a new tab, and the linked page gets no handle on this one.
    link({ href, title, tokens }) {
      const text = this.parser.parseInline(tokens);
      const titled = title ? ` title="${escapeAttribute(title)}"` : '';
      return `<a href="${escapeAttribute(href)}"${titled} target="_blank" rel="noopener noreferrer">${text}</a>`;
    },
  },
});

/** Markdown as sanitized HTML: issue descriptions, comments and agents' text are written by anyone. */
export function renderMarkdown(source: string): string {
  return DOMPurify.sanitize(markdown.parse(source, { async: false }), { ADD_ATTR: ['target'] });
}

export function MarkdownView(props: { readonly source: string; readonly className?: string; readonly empty?: string }) {
  const html = useMemo(() => renderMarkdown(props.source), [props.source]);
  if (props.source.trim() === '') return <p className="hint">{props.empty ?? 'Nothing written.'}</p>;
  return <div className={props.className ? `markdown ${props.className}` : 'markdown'} dangerouslySetInnerHTML={{ __html: html }} />;
}
