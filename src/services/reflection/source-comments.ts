import { clone, create, type DescFile, type DescMessage } from "@bufbuild/protobuf";
import {
  FileDescriptorProtoSchema,
  SourceCodeInfo_LocationSchema,
  SourceCodeInfoSchema,
  type FileDescriptorProto,
  type SourceCodeInfo_Location,
} from "@bufbuild/protobuf/wkt";

// Field numbers of descriptor.proto that make a location's path.
const FILE_MESSAGE = 4;
const FILE_ENUM = 5;
const FILE_SERVICE = 6;
const MESSAGE_FIELD = 2;
const MESSAGE_NESTED = 3;
const MESSAGE_ENUM = 4;
const ENUM_VALUE = 2;
const SERVICE_METHOD = 2;

/**
 * A file's descriptor with its comments, for reflection: protoc-gen-es embeds
 * descriptors without their source info, so tools that show a schema's documentation
 * (grpcurl describe, Postman) found none. The comments come back from gen/'s
 * proto_comments.ts (by fully qualified name), as leading comments at their elements'
 * paths; spans are unknown and given as zero, which tools that only read comments ignore.
 */
export function withSourceComments(file: DescFile, comments: Readonly<Record<string, string>>): FileDescriptorProto {
  const locations: SourceCodeInfo_Location[] = [];
  const add = (path: number[], name: string) => {
    const text = comments[name];
    if (text !== undefined)
      locations.push(
        create(SourceCodeInfo_LocationSchema, {
          path,
          span: [0, 0, 0],
          leadingComments: ` ${text.replaceAll("\n", "\n ")}\n`,
        }),
      );
  };
  const addMessage = (message: DescMessage, path: number[]) => {
    add(path, message.typeName);
    message.fields.forEach((field, i) => add([...path, MESSAGE_FIELD, i], `${message.typeName}.${field.name}`));
    message.nestedMessages.forEach((nested, i) => addMessage(nested, [...path, MESSAGE_NESTED, i]));
    message.nestedEnums.forEach((nested, i) => {
      add([...path, MESSAGE_ENUM, i], nested.typeName);
      nested.values.forEach((value, v) =>
        add([...path, MESSAGE_ENUM, i, ENUM_VALUE, v], `${nested.typeName}.${value.name}`),
      );
    });
  };
  file.services.forEach((service, s) => {
    add([FILE_SERVICE, s], service.typeName);
    service.methods.forEach((method, m) =>
      add([FILE_SERVICE, s, SERVICE_METHOD, m], `${service.typeName}.${method.name}`),
    );
  });
  file.messages.forEach((message, m) => addMessage(message, [FILE_MESSAGE, m]));
  file.enums.forEach((desc, e) => {
    add([FILE_ENUM, e], desc.typeName);
    desc.values.forEach((value, v) => add([FILE_ENUM, e, ENUM_VALUE, v], `${desc.typeName}.${value.name}`));
  });
  const proto = clone(FileDescriptorProtoSchema, file.proto);
  if (locations.length > 0) proto.sourceCodeInfo = create(SourceCodeInfoSchema, { location: locations });
  return proto;
}
