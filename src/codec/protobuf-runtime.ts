/**
 * protobufjs's minimal runtime as Chainlet uses it (the wire writers of proto-wire.ts and the
 * generated codecs). protobufjs finds `long` with a require hidden from bundlers (its `inquire`),
 * which resolves from wherever the bundle sits; given here, 64-bit fields decode to Long objects
 * however the package is installed. Every user imports this module first.
 */
import Long from 'long';
import protobuf from 'protobufjs/minimal.js';

protobuf.util.Long = Long;
protobuf.configure();

export default protobuf;
