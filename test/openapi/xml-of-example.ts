/**
 * The XML document an example object of the OpenAPI document stands for, written as the schema's `xml`
 * annotations say, as an explorer writes it: a property marked `attribute` is an attribute, an array property is
 * one element per item named by the item schema's `xml.name`, the root element is named by the schema's. Test
 * support for the generated documents only: every `$ref` is internal, and no other XML annotation is used.
 */
import { escapeXmlAttribute } from '../../lib/text';

// biome-ignore lint/suspicious/noExplicitAny: documents and examples are walked freely
type Json = Record<string, any>;

/** `{$ref: '#/components/...'}` → the component it names; any other node as it is. */
export function deref(document: Json, node: Json): Json {
  if (typeof node.$ref !== 'string') return node;
  return node.$ref
    .slice(2)
    .split('/')
    .reduce((at: Json, key: string) => at[key], document);
}

export function xmlOfExample(document: Json, schemaOrRef: Json, value: Json): string {
  const schema = deref(document, schemaOrRef);
  const name = schema.xml?.name;
  let attributes = '';
  let content = '';
  for (const [key, item] of Object.entries(value)) {
    const property = deref(document, schema.properties[key]);
    if (property.xml?.attribute) attributes += ` ${key}="${escapeXmlAttribute(String(item))}"`;
    else for (const row of item as Json[]) content += xmlOfExample(document, property.items, row);
  }
  return content === '' ? `<${name}${attributes}/>` : `<${name}${attributes}>${content}</${name}>`;
}
