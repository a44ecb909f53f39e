/** One part of an MCP tool result's `content`, as far as the model's text is concerned. */
type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; mimeType: string; data: string }
  | { type: 'resource'; resource: { uri: string; text?: string; mimeType?: string } }
  | { type: 'resource_link'; uri: string; name?: string }
  | { type: string; [key: string]: unknown };

/**
 * The text a model sees for an MCP tool result: its text parts, one per line; binary parts (images, audio) are named
 * with their type and size rather than pasted as base64; embedded text resources give their text; without any
 * content, the structured content as JSON.
 */
export function toolResultText(result: { content?: unknown; structuredContent?: unknown }): string {
  const parts = Array.isArray(result.content) ? (result.content as ContentPart[]) : [];
  if (parts.length === 0) {
    return result.structuredContent === undefined ? '' : JSON.stringify(result.structuredContent);
  }
  return parts.map(partText).join('\n');
}

function partText(part: ContentPart): string {
  switch (part.type) {
    case 'text':
      return String(part.text);
    case 'image':
    case 'audio': {
      const { mimeType, data } = part as { mimeType: string; data: string };
      return `[${part.type} ${mimeType}, ${Math.floor((String(data).length * 3) / 4)} bytes]`;
    }
    case 'resource': {
      const { resource } = part as { resource: { uri: string; text?: string } };
      return typeof resource.text === 'string' ? resource.text : `[resource ${resource.uri}]`;
    }
    case 'resource_link':
      return `[resource ${String((part as { uri: string }).uri)}]`;
    default:
      return JSON.stringify(part);
  }
}
