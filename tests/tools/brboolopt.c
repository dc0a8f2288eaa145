// SPDX-License-Identifier: GPL-2.0
/*
 * brboolopt BRIDGE OPTION 0|1: set one of a bridge's boolean options
 * (IFLA_BR_MULTI_BOOLOPT) over rtnetlink, and print the kernel's extack
 * message, as iproute2 would. Debian 12's iproute2 predates some of
 * them (mst_enabled). OPTION is a name below or a BR_BOOLOPT_* number.
 * Exits 0 when the kernel accepted the change, 1 when it refused it,
 * 2 on a usage or socket error.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

static const char *const opt_names[] = {
	"no_linklocal_learn",	/* BR_BOOLOPT_NO_LL_LEARN */
	"mcast_vlan_snooping",	/* BR_BOOLOPT_MCAST_VLAN_SNOOPING */
	"mst_enabled",		/* BR_BOOLOPT_MST_ENABLE */
};

struct req {
	struct nlmsghdr nh;
	struct ifinfomsg ifi;
	char attrs[256];
};

/* Append attribute @type with @len bytes of @data at the end of @nh. */
static struct rtattr *put_attr(struct nlmsghdr *nh, unsigned short type,
			       const void *data, size_t len)
{
	struct rtattr *rta = (void *)((char *)nh + NLMSG_ALIGN(nh->nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + RTA_ALIGN(rta->rta_len);
	return rta;
}

static void nest_end(struct nlmsghdr *nh, struct rtattr *nest)
{
	nest->rta_len = (char *)nh + nh->nlmsg_len - (char *)nest;
}

static int parse_opt(const char *s)
{
	unsigned int i;
	char *end;
	long v;

	for (i = 0; i < sizeof(opt_names) / sizeof(opt_names[0]); i++)
		if (!strcmp(s, opt_names[i]))
			return i;
	v = strtol(s, &end, 0);
	if (*s && !*end && v >= 0 && v < 32)
		return v;
	return -1;
}

/* Print the extack message of an error reply, if there is one. */
static void print_extack(struct nlmsghdr *nh, int len)
{
	struct nlmsgerr *err = NLMSG_DATA(nh);
	int off = sizeof(*nh) + sizeof(*err);
	struct rtattr *rta;

	if (!(nh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nh->nlmsg_flags & NLM_F_CAPPED))
		off += err->msg.nlmsg_len - sizeof(err->msg);
	len = (int)nh->nlmsg_len - off;
	for (rta = (void *)((char *)nh + off); RTA_OK(rta, len);
	     rta = RTA_NEXT(rta, len))
		if (rta->rta_type == NLMSGERR_ATTR_MSG)
			fprintf(stderr, "Error: %s\n", (char *)RTA_DATA(rta));
}

int main(int argc, char **argv)
{
	struct br_boolopt_multi bm = {};
	struct rtattr *linkinfo, *data;
	struct req req = {};
	char buf[8192];
	int fd, opt, one = 1;
	unsigned int ifindex;
	struct nlmsghdr *nh;
	ssize_t n;

	if (argc != 4 || (opt = parse_opt(argv[2])) < 0 ||
	    (strcmp(argv[3], "0") && strcmp(argv[3], "1"))) {
		fprintf(stderr, "usage: %s BRIDGE OPTION 0|1\n", argv[0]);
		return 2;
	}
	ifindex = if_nametoindex(argv[1]);
	if (!ifindex) {
		fprintf(stderr, "%s: no such device\n", argv[1]);
		return 2;
	}

	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifi));
	req.nh.nlmsg_type = RTM_NEWLINK;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.nh.nlmsg_seq = 1;
	req.ifi.ifi_family = AF_UNSPEC;
	req.ifi.ifi_index = ifindex;
	linkinfo = put_attr(&req.nh, IFLA_LINKINFO | NLA_F_NESTED, NULL, 0);
	put_attr(&req.nh, IFLA_INFO_KIND, "bridge", strlen("bridge") + 1);
	data = put_attr(&req.nh, IFLA_INFO_DATA | NLA_F_NESTED, NULL, 0);
	bm.optmask = 1u << opt;
	bm.optval = argv[3][0] == '1' ? bm.optmask : 0;
	put_attr(&req.nh, IFLA_BR_MULTI_BOOLOPT, &bm, sizeof(bm));
	nest_end(&req.nh, data);
	nest_end(&req.nh, linkinfo);

	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	if (fd < 0 ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    send(fd, &req, req.nh.nlmsg_len, 0) < 0) {
		perror("rtnetlink");
		return 2;
	}
	n = recv(fd, buf, sizeof(buf), 0);
	close(fd);
	nh = (struct nlmsghdr *)buf;
	if (n < (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)) ||
	    nh->nlmsg_type != NLMSG_ERROR) {
		fprintf(stderr, "rtnetlink: unexpected reply\n");
		return 2;
	}
	if (((struct nlmsgerr *)NLMSG_DATA(nh))->error) {
		print_extack(nh, n);
		fprintf(stderr, "RTNETLINK answers: %s\n",
			strerror(-((struct nlmsgerr *)NLMSG_DATA(nh))->error));
		return 1;
	}
	return 0;
}
