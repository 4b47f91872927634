/**
 * The depth rule both schemas put on each of their roots: rows nest at most two levels below the root (rows,
 * then child rows). XML Schema 1.0 cannot say "at most two levels" for elements of any name, so the rule is an
 * identity constraint that no element three levels down can satisfy. Plain XSD text for inside the root's
 * xs:element; the schema must declare the rrs prefix. Must not describe rows or attributes.
 */

/** The explaining comment and the xs:key for the root element `root`, indented for inside its xs:element. */
export function depthRule(root: string): string {
  return `<!--
      Depth rule: an element three levels below ${root} (inside a child row) would have to carry an
      attribute that no document carries, so no such element validates. XML Schema 1.0 has no direct way to
      say "at most two levels" for elements of any name; a key over */*/* is that way.
    -->
    <xs:key name="${root}.noRowsInsideChildRows">
      <xs:selector xpath="*/*/*"/>
      <xs:field xpath="@rrs:depthGuard"/>
    </xs:key>`;
}
