-- Wireshark/tshark dissector for arfabric's LSN and ARN frames.
--
--   tshark -X lua_script:tools/wireshark/arfabric.lua -r capture.pcap
--
-- LSN (draft-camarillo-rtgwg-lsn-00 §3.1): EtherType 0x8808 (MAC Control),
-- OpCode 0x5AA5. Every other 0x8808 opcode (PAUSE, PFC, ...) is handed back
-- to Wireshark's built-in MAC Control dissector.
-- ARN (draft-wh-rtgwg-adaptive-routing-arn-05 §4.2): UDP port 53456 and raw
-- Ethernet EtherType 0x88B5 with a 2-byte length (docs/PROTOCOLS.md).
-- The code points can be changed in the protocol preferences.

local lsn = Proto("arfabric_lsn", "Lightspeed Notification (LSN)")
local arn = Proto("arfabric_arn", "Adaptive Routing Notification (ARN)")

lsn.prefs.opcode = Pref.uint("OpCode", 0x5AA5, "LSN OpCode (TBD2)")
arn.prefs.udp_port = Pref.uint("UDP port", 53456, "ARN UDP port")
arn.prefs.ethertype = Pref.uint("EtherType", 0x88B5, "ARN raw Ethernet EtherType")

local msg_types = {
  [0] = "Reachable",
  [1] = "Congestion Level 1",
  [2] = "Congestion Level 2",
  [3] = "Congestion Level 3",
}

local lf = {
  opcode = ProtoField.uint16("arfabric_lsn.opcode", "OpCode", base.HEX),
  type = ProtoField.uint8("arfabric_lsn.type", "Header Type", base.DEC, nil, 0xF0),
  r = ProtoField.uint8("arfabric_lsn.r", "R", base.DEC, nil, 0x08),
  msg_type = ProtoField.uint8("arfabric_lsn.msg_type", "Msg-type", base.DEC,
                              msg_types, 0x06),
  reserved = ProtoField.uint16("arfabric_lsn.reserved", "Reserved", base.HEX, nil,
                               0x01C0),
  dev_range = ProtoField.uint16("arfabric_lsn.dev_range", "Dev-Range", base.DEC,
                                nil, 0x003F),
  bitmap = ProtoField.bytes("arfabric_lsn.bitmap", "Reachable-Devices-Bitmap"),
  set_bits = ProtoField.uint16("arfabric_lsn.set_bits", "Bits set"),
  clear = ProtoField.uint16("arfabric_lsn.clear", "Device with bit 0"),
}
lsn.fields = {lf.opcode, lf.type, lf.r, lf.msg_type, lf.reserved, lf.dev_range,
              lf.bitmap, lf.set_bits, lf.clear}

local arn_types = {
  [1] = "Congestion detection",
  [2] = "Congestion elimination",
  [3] = "Failure detection",
  [4] = "Failure elimination",
}

local af = {
  length = ProtoField.uint16("arfabric_arn.length", "Length"),
  type = ProtoField.uint8("arfabric_arn.type", "Type", base.DEC, arn_types),
  version = ProtoField.uint8("arfabric_arn.version", "Version", base.DEC, nil, 0xF0),
  rsvd = ProtoField.uint8("arfabric_arn.rsvd", "Rvsd", base.HEX, nil, 0x0F),
  metric = ProtoField.uint8("arfabric_arn.metric", "Metric"),
  para_type = ProtoField.uint8("arfabric_arn.para_type", "Para-Type", base.HEX),
  opcode = ProtoField.uint32("arfabric_arn.flow.opcode", "Opcode", base.DEC,
                             {[1] = "IPv4", [2] = "IPv6"}, 0xF0000000),
  mask = ProtoField.uint32("arfabric_arn.flow.mask", "Mask", base.HEX, nil,
                           0x0F800000),
  protocol = ProtoField.uint32("arfabric_arn.flow.protocol", "Protocol", base.DEC,
                               nil, 0x000000FF),
  src4 = ProtoField.ipv4("arfabric_arn.flow.src", "Source"),
  dst4 = ProtoField.ipv4("arfabric_arn.flow.dst", "Destination"),
  src6 = ProtoField.ipv6("arfabric_arn.flow.src6", "Source"),
  dst6 = ProtoField.ipv6("arfabric_arn.flow.dst6", "Destination"),
  sport = ProtoField.uint16("arfabric_arn.flow.src_port", "Source Port"),
  dport = ProtoField.uint16("arfabric_arn.flow.dst_port", "Destination Port"),
  path_id = ProtoField.uint32("arfabric_arn.path_id", "Path ID"),
  unknown = ProtoField.bytes("arfabric_arn.unknown", "Parameters of reserved bits"),
}
arn.fields = {af.length, af.type, af.version, af.rsvd, af.metric, af.para_type,
              af.opcode, af.mask, af.protocol, af.src4, af.dst4, af.src6,
              af.dst6, af.sport, af.dport, af.path_id, af.unknown}

local function popcount8(b)
  local n = 0
  while b > 0 do
    n = n + (b % 2)
    b = math.floor(b / 2)
  end
  return n
end

-- The ethertype table's dissector for 0x8808 before ours replaces it.
local ethertype_table = DissectorTable.get("ethertype")
local builtin_mac_control = ethertype_table:get_dissector(0x8808)

function lsn.dissector(tvb, pinfo, tree)
  if tvb:len() < 2 or tvb(0, 2):uint() ~= lsn.prefs.opcode then
    if builtin_mac_control then
      return builtin_mac_control:call(tvb, pinfo, tree)
    end
    return 0
  end
  if tvb:len() < 36 then
    return 0
  end
  pinfo.cols.protocol = "LSN"
  local t = tree:add(lsn, tvb(0, 36))
  t:add(lf.opcode, tvb(0, 2))
  t:add(lf.type, tvb(2, 1))
  t:add(lf.r, tvb(2, 1))
  t:add(lf.msg_type, tvb(2, 1))
  t:add(lf.reserved, tvb(2, 2))
  t:add(lf.dev_range, tvb(2, 2))
  t:add(lf.bitmap, tvb(4, 32))
  local range = tvb(3, 1):uint() % 64
  local set = 0
  local clear = {}
  for i = 0, 31 do
    local b = tvb(4 + i, 1):uint()
    set = set + popcount8(b)
    for bit = 0, 7 do
      if math.floor(b / 2 ^ (7 - bit)) % 2 == 0 then
        clear[#clear + 1] = range * 256 + i * 8 + bit
      end
    end
  end
  t:add(lf.set_bits, set):set_generated()
  for _, id in ipairs(clear) do
    t:add(lf.clear, id):set_generated()
  end
  local msg = math.floor(tvb(2, 1):uint() / 2) % 4
  pinfo.cols.info = string.format("LSN %s range %d, %d devices set",
                                  msg_types[msg], range, set)
  return 36
end

-- Dissects one ARN message occupying all of tvb.
local function dissect_arn_message(tvb, pinfo, tree)
  if tvb:len() < 4 then
    return
  end
  local t = tree:add(arn, tvb())
  t:add(af.type, tvb(0, 1))
  t:add(af.version, tvb(1, 1))
  t:add(af.rsvd, tvb(1, 1))
  t:add(af.metric, tvb(2, 1))
  t:add(af.para_type, tvb(3, 1))
  local para = tvb(3, 1):uint()
  local off = 4
  local function five_tuple(label)
    if tvb:len() < off + 4 then
      return
    end
    local st = t:add(arn, tvb(off), label)
    st:add(af.opcode, tvb(off, 4))
    st:add(af.mask, tvb(off, 4))
    st:add(af.protocol, tvb(off, 4))
    local v6 = math.floor(tvb(off, 1):uint() / 16) == 2
    local alen = v6 and 16 or 4
    off = off + 4
    if tvb:len() < off + 2 * alen + 4 then
      return
    end
    st:add(v6 and af.src6 or af.src4, tvb(off, alen))
    st:add(v6 and af.dst6 or af.dst4, tvb(off + alen, alen))
    off = off + 2 * alen
    st:add(af.sport, tvb(off, 2))
    st:add(af.dport, tvb(off + 2, 2))
    off = off + 4
  end
  if para >= 0x80 then
    five_tuple("5-tuple")
  end
  if math.floor(para / 0x40) % 2 == 1 and tvb:len() >= off + 4 then
    t:add(af.path_id, tvb(off, 4))
    off = off + 4
  end
  if math.floor(para / 0x20) % 2 == 1 then
    five_tuple("Inner 5-tuple")
  end
  if para % 0x20 ~= 0 and tvb:len() > off then
    t:add(af.unknown, tvb(off))
  end
  pinfo.cols.protocol = "ARN"
  pinfo.cols.info = string.format("ARN %s, metric %d",
                                  arn_types[tvb(0, 1):uint()] or "unknown type",
                                  tvb(2, 1):uint())
end

function arn.dissector(tvb, pinfo, tree)
  dissect_arn_message(tvb, pinfo, tree)
  return tvb:len()
end

-- Raw Ethernet form: 2-byte length, then the message, then padding.
local arn_l2 = Proto("arfabric_arn_l2", "ARN over Ethernet")
function arn_l2.dissector(tvb, pinfo, tree)
  if tvb:len() < 2 then
    return 0
  end
  local len = tvb(0, 2):uint()
  local t = tree:add(arn_l2, tvb(0, math.min(tvb:len(), 2 + len)))
  t:add(af.length, tvb(0, 2))
  if tvb:len() >= 2 + len then
    dissect_arn_message(tvb(2, len):tvb(), pinfo, tree)
  end
  return tvb:len()
end

ethertype_table:add(0x8808, lsn)
ethertype_table:add(arn.prefs.ethertype, arn_l2)
DissectorTable.get("udp.port"):add(arn.prefs.udp_port, arn)
