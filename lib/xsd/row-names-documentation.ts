/**
 * The documentation both schemas carry at schema level: how a resource names its row elements and attributes,
 * which is what the generic schemas cannot say themselves. Plain text, already safe inside an XML element:
 * it must contain no `&`, `<` or `>`, and must not describe any one resource.
 */
export const rowNamesDocumentation = `Row and attribute names depend on the resource, so this schema describes the structure that every
      resource shares, not the names of one resource:
      - A row is an element named with the resource's row name: the rowAlias (or alias) of the Parent table in
        the resource's definition, else that table's name as the database reports it. In a hierarchical resource
        a child row is named the same way from the Child table and sits inside its parent row. Rows nest no
        deeper than that.
      - Each field is an attribute of its row, named with the field's label: the column's alias (or name) in
        the resource's SQL query.
      - A NULL field has no attribute. Responses omit it; a request cannot express NULL (an omitted attribute
        leaves the field unchanged on update, and lets the database default it on insert).
      - Values are text: decimals with the database's exact digits, booleans true or false, dates YYYY-MM-DD,
        times HH:MM:SS[.ffffff], timestamps YYYY-MM-DD HH:MM:SS[.ffffff], binary values as base64.
      - Elements and attributes are in no namespace.
      The exact row names, field labels and types of a resource: GET /conf/metadata/{name} (for people:
      GET /conf/documentation/{name}).`;
