package dev.distlock.redis.wait;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.event.connection.DisconnectedEvent;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.redis.protocol.DaemonThreads;

/**
 * Subscribes a client to its sharded release channels on a Redis Cluster (Redis 7.0+),
 * through one Lettuce cluster pub/sub connection, which sends each {@code SSUBSCRIBE} to
 * the master of the channel's slot: a release there {@code SPUBLISH}es, and the message
 * goes no further than that master's shard. A slot is subscribed while
 * {@link SlotSubscriptions} wants it. A subscription is lost when Redis unsubscribes it
 * (a slot move or a failover) or the connection to its node drops; it is subscribed
 * again, after a refresh of the cluster's topology, every half second until the slot's
 * master confirms it, and waiters fall back meanwhile. Nothing is subscribed after the
 * client stops. Only Lettuce has cluster pub/sub: with Jedis the client keeps its one
 * classic channel, whose messages the cluster broadcasts to every node.
 */
public final class ShardedReleaseSubscription implements SmartLifecycle, SlotSubscriptions.Subscriber {

	private static final Log logger = LogFactory.getLog(ShardedReleaseSubscription.class);

	private static final long CHECK_MILLIS = 500;

	private final LettuceConnectionFactory connectionFactory;

	private final SlotSubscriptions slots;

	private final ReleaseMessageWaiter waiter;

	private final Map<String, RedisClusterNode> nodes = new ConcurrentHashMap<>();

	private final AtomicBoolean warned = new AtomicBoolean();

	private volatile boolean refresh;

	private Set<String> pendingBefore = Set.of();

	private @Nullable ScheduledExecutorService executor;

	private @Nullable StatefulRedisClusterPubSubConnection<String, String> connection;

	private @Nullable Disposable disconnects;

	/**
	 * Creates the subscription; it starts with the client.
	 * @param connectionFactory a cluster-aware Lettuce connection factory
	 * @param slots the slots to subscribe
	 * @param waiter the waiter to wake
	 */
	public ShardedReleaseSubscription(LettuceConnectionFactory connectionFactory, SlotSubscriptions slots,
			ReleaseMessageWaiter waiter) {
		this.connectionFactory = connectionFactory;
		this.slots = slots;
		this.waiter = waiter;
	}

	/**
	 * Returns whether a factory can subscribe to sharded channels: Lettuce on a cluster.
	 * @param factory the connection factory
	 * @return whether it is a cluster-aware {@link LettuceConnectionFactory}
	 */
	public static boolean supports(RedisConnectionFactory factory) {
		return factory instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware();
	}

	@Override
	public synchronized void start() {
		if (this.executor == null) {
			this.executor = Executors
				.newSingleThreadScheduledExecutor(DaemonThreads.named("distlock-shard-subscriber"));
			this.executor.scheduleWithFixedDelay(this::resubscribeLost, CHECK_MILLIS, CHECK_MILLIS,
					TimeUnit.MILLISECONDS);
			this.disconnects = client().getResources().eventBus().get().subscribe((event) -> {
				if (event instanceof DisconnectedEvent disconnected) {
					disconnected(disconnected.remoteAddress());
				}
			});
			this.slots.subscriber(this);
		}
	}

	@Override
	public synchronized void stop() {
		this.slots.subscriber(SlotSubscriptions.Subscriber.NONE);
		if (this.executor != null) {
			this.executor.shutdownNow();
			this.executor = null;
		}
		if (this.disconnects != null) {
			this.disconnects.dispose();
		}
		if (this.connection != null) {
			this.connection.closeAsync();
			this.connection = null;
		}
		this.nodes.keySet().forEach(this.slots::lost);
		this.nodes.clear();
	}

	@Override
	public synchronized boolean isRunning() {
		return this.executor != null;
	}

	@Override
	public synchronized void subscribe(String channel) {
		if (this.executor != null) {
			this.executor.execute(() -> send(channel, true));
		}
	}

	@Override
	public synchronized void unsubscribe(String channel) {
		if (this.executor != null) {
			this.executor.execute(() -> send(channel, false));
		}
	}

	private void send(String channel, boolean subscribe) {
		try {
			StatefulRedisClusterPubSubConnection<String, String> pubSub = connection();
			if (pubSub != null && subscribe) {
				pubSub.async().ssubscribe(channel);
			}
			else if (pubSub != null) {
				pubSub.async().sunsubscribe(channel);
			}
		}
		catch (RuntimeException ex) {
			// Subscribed again at the next check; waiters fall back meanwhile.
			this.refresh = true;
			if (this.warned.compareAndSet(false, true)) {
				logger.warn("Could not subscribe to sharded lock release channel '" + channel + "' yet, retrying every "
						+ CHECK_MILLIS + "ms: " + ex.getMessage());
			}
		}
	}

	/**
	 * Subscribes again the wanted channels that are not confirmed, refreshing the
	 * topology first if some were already pending at the last check or were lost.
	 */
	private void resubscribeLost() {
		var pending = this.slots.unconfirmed();
		boolean stale = this.refresh || pending.stream().anyMatch(this.pendingBefore::contains);
		this.pendingBefore = Set.copyOf(pending);
		if (pending.isEmpty()) {
			return;
		}
		try {
			if (stale) {
				this.refresh = false;
				client().refreshPartitions();
			}
		}
		catch (RuntimeException ex) {
			this.refresh = true;
			return;
		}
		pending.forEach((channel) -> send(channel, true));
	}

	private synchronized @Nullable StatefulRedisClusterPubSubConnection<String, String> connection() {
		if (this.connection == null && this.executor != null) {
			StatefulRedisClusterPubSubConnection<String, String> pubSub = client().connectPubSub();
			pubSub.addListener(new Listener());
			this.connection = pubSub;
		}
		return this.connection;
	}

	private RedisClusterClient client() {
		return (RedisClusterClient) this.connectionFactory.getRequiredNativeClient();
	}

	/** Loses the subscriptions confirmed by a node whose connection dropped. */
	private void disconnected(SocketAddress address) {
		if (address instanceof InetSocketAddress remote) {
			this.nodes.forEach((channel, node) -> {
				if (node.getUri().getPort() == remote.getPort()
						&& (node.getUri().getHost().equals(remote.getHostString()) || remote.getAddress() != null
								&& node.getUri().getHost().equals(remote.getAddress().getHostAddress()))
						&& this.nodes.remove(channel, node)) {
					this.refresh |= this.slots.lost(channel);
				}
			});
		}
	}

	private final class Listener extends RedisClusterPubSubAdapter<String, String> {

		@Override
		public void smessage(RedisClusterNode node, String channel, String message) {
			ShardedReleaseSubscription.this.waiter.deliver(message);
		}

		@Override
		public void ssubscribed(RedisClusterNode node, String channel, long count) {
			if (!isRunning()) {
				return;
			}
			ShardedReleaseSubscription.this.nodes.put(channel, node);
			ShardedReleaseSubscription.this.slots.confirmed(channel);
		}

		@Override
		public void sunsubscribed(RedisClusterNode node, String channel, long count) {
			ShardedReleaseSubscription.this.nodes.remove(channel, node);
			if (ShardedReleaseSubscription.this.slots.lost(channel)) {
				ShardedReleaseSubscription.this.refresh = true;
				subscribe(channel);
			}
		}

	}

}
