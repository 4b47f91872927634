/**
 * Response.xsd: the XML response documents the service writes on success, readResponse and writeResponse, served
 * at GET /xsd/Response.xsd. This module is the schema's only source: it is bundled as text into the Lambda, so
 * nothing is generated or read from disk. It must describe only what every resource shares; one resource's names
 * belong to /conf/metadata. Error bodies are text, not XML.
 */
import { depthRule } from './depth-rule';
import { rowNamesDocumentation } from './row-names-documentation';

export const responseXsd = `<?xml version="1.0" encoding="UTF-8"?>
<!--
  Response.xsd (XML Schema 1.0): success response documents of the Relational Resource Service.

  <readResponse>                             GET: zero or more rows, possibly <readResponse/>
    <row field="value" ...>
      <childRow field="value" .../>          child rows, hierarchical resources only
    </row>
  </readResponse>

  <writeResponse rowsAffected="N">           POST, PUT, DELETE: rows only for inserts (as stored)
    <row field="value" .../>
  </writeResponse>

  What this schema enforces: the root is readResponse or writeResponse; writeResponse carries rowsAffected,
  a count written in plain decimal digits; readResponse carries no attribute; either holds elements in no
  namespace and no text; elements nest at most two levels below the root (rows, then child rows).
  What XML Schema 1.0 cannot express here, so this schema does not check it:
  - the names of rows, child rows and attributes, and that all rows under the root share one name: they
    come from the resource (see the documentation below), and a wildcard cannot constrain the content of
    the elements it admits;
  - hence also: no text inside a row, no namespace on child rows or on attributes;
  - the type of each value, and that a NULL field is an omitted attribute.
  A resource whose rows were named readResponse or writeResponse would have its rows checked against these
  declarations (the row wildcard is lax, see below) and could fail to validate: do not name rows so.
-->
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"
           xmlns:rrs="urn:relational-resource-service:xsd"
           elementFormDefault="unqualified" attributeFormDefault="unqualified" version="1.0">
  <xs:annotation>
    <xs:documentation xml:lang="en">
      Success response documents of the Relational Resource Service: readResponse answers GET /res/...,
      writeResponse answers POST, PUT and DELETE /res/... (Content-Type application/xml).

      ${rowNamesDocumentation}
    </xs:documentation>
  </xs:annotation>

  <xs:complexType name="rows">
    <xs:sequence>
      <!--
        Rows, of any name. lax, not skip: some validators (libxml2) do not evaluate the depth rule on
        each root inside skipped elements.
      -->
      <xs:any namespace="##local" processContents="lax" minOccurs="0" maxOccurs="unbounded"/>
    </xs:sequence>
  </xs:complexType>

  <xs:simpleType name="rowCount">
    <xs:annotation>
      <xs:documentation xml:lang="en">A count of rows, in decimal digits without sign or leading zeros.</xs:documentation>
    </xs:annotation>
    <xs:restriction base="xs:nonNegativeInteger">
      <xs:pattern value="0|[1-9][0-9]*"/>
    </xs:restriction>
  </xs:simpleType>

  <xs:element name="readResponse" type="rows">
    <xs:annotation>
      <xs:documentation xml:lang="en">
        The rows a read matched, in key order, children nested in their parent; empty when none matched.
      </xs:documentation>
    </xs:annotation>
    ${depthRule('readResponse')}
  </xs:element>

  <xs:element name="writeResponse">
    <xs:annotation>
      <xs:documentation xml:lang="en">
        rowsAffected counts every row inserted, updated or deleted in every table of the request. An insert
        also lists the inserted rows as stored (generated keys and defaults filled in), in the request's
        nested shape; a parent that was not inserted appears by its key only. Updates and deletes list none.
      </xs:documentation>
    </xs:annotation>
    <xs:complexType>
      <xs:complexContent>
        <xs:extension base="rows">
          <xs:attribute name="rowsAffected" type="rowCount" use="required"/>
        </xs:extension>
      </xs:complexContent>
    </xs:complexType>
    ${depthRule('writeResponse')}
  </xs:element>
</xs:schema>
`;
