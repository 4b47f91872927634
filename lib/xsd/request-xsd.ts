/**
 * Request.xsd: the XML request documents the service reads (the XML bodies of inserts, updates and deletes),
 * served at GET /xsd/Request.xsd. This module is the schema's only source: it is bundled as text into the
 * Lambda, so nothing is generated or read from disk. It must describe only what every resource shares; one
 * resource's names belong to /conf/metadata.
 */
import { depthRule } from './depth-rule';
import { rowNamesDocumentation } from './row-names-documentation';

export const requestXsd = `<?xml version="1.0" encoding="UTF-8"?>
<!--
  Request.xsd (XML Schema 1.0): request documents of the Relational Resource Service.

  <request>
    <row field="value" ...>                  one or more rows, named by the resource
      <childRow field="value" .../>          optional child rows, hierarchical resources only
    </row>
  </request>

  What this schema enforces: the root is request; it holds elements in no namespace and no text; elements
  nest at most two levels below request (rows, then child rows).
  What XML Schema 1.0 cannot express here, so this schema does not check it (the service does, with a 400):
  - the names of rows, child rows and attributes, and that all rows under request share one name: they
    come from the resource (see the documentation below), and a wildcard cannot constrain the content of
    the elements it admits;
  - hence also: no text inside a row, no namespace on child rows or on attributes;
  - which attributes a row needs (keys) and the type of each value.
  Deliberately looser than the service, for resources whose rows or child rows are named request: such a
  row is checked against the request declaration below (the row wildcard is lax), so request accepts any
  attributes (the service ignores them) and no rows at all (the service refuses an empty request with a 400).
-->
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"
           xmlns:rrs="urn:relational-resource-service:xsd"
           elementFormDefault="unqualified" attributeFormDefault="unqualified" version="1.0">
  <xs:annotation>
    <xs:documentation xml:lang="en">
      Request documents of the Relational Resource Service: the XML bodies of POST, PUT and DELETE on
      /res/{name} (parent rows) and /res/{name}/{id} (child rows of the parent in the path).

      ${rowNamesDocumentation}
    </xs:documentation>
  </xs:annotation>

  <xs:element name="request">
    <xs:annotation>
      <xs:documentation xml:lang="en">
        The rows (the service needs at least one). On /res/{name} they are parent (or flat) rows, each
        optionally holding child rows; on /res/{name}/{id} they are child rows of the parent in the path.
      </xs:documentation>
    </xs:annotation>
    <xs:complexType>
      <xs:sequence>
        <!--
          Rows, of any name. lax, not skip: some validators (libxml2) do not evaluate the depth rule
          below inside skipped elements.
        -->
        <xs:any namespace="##local" processContents="lax" minOccurs="0" maxOccurs="unbounded"/>
      </xs:sequence>
      <xs:anyAttribute namespace="##local" processContents="skip"/>
    </xs:complexType>
    ${depthRule('request')}
  </xs:element>
</xs:schema>
`;
