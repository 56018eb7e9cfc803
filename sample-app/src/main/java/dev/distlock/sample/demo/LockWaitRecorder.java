package dev.distlock.sample.demo;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.aopalliance.intercept.MethodInterceptor;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;

import dev.distlock.LockClient;

/**
 * Measures, in the demo's instances, how long each acquisition takes: it wraps the
 * {@link LockClient} bean, which {@code @DistributedLock} calls before every locked method, and
 * times each {@code lock} and {@code tryLock} call with {@link System#nanoTime()}: the wait for
 * other holders plus the Redis round trips. Samples are grouped by lock family: the key up to its
 * last {@code ':'}, such as {@code lock:sku}.
 * <p>
 * Registered only by the demo (it is not a component), so the service itself runs unwrapped.
 * (Once distlock publishes acquisitions to listeners, a listener can replace this wrapper.)
 */
public class LockWaitRecorder implements BeanPostProcessor {

	private final Map<String, List<Long>> samples = new TreeMap<>();

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (!(bean instanceof LockClient)) {
			return bean;
		}
		ProxyFactory factory = new ProxyFactory(bean);
		// A subclass proxy keeps the bean injectable as its own class, not only as a LockClient.
		factory.setProxyTargetClass(!Modifier.isFinal(bean.getClass().getModifiers()));
		factory.addAdvice((MethodInterceptor) (invocation) -> {
			String method = invocation.getMethod().getName();
			Object[] arguments = invocation.getArguments();
			if (!(method.equals("lock") || method.equals("tryLock")) || arguments.length != 2
					|| !(arguments[0] instanceof String key)) {
				return invocation.proceed();
			}
			long start = System.nanoTime();
			try {
				return invocation.proceed();
			}
			finally {
				record(key, System.nanoTime() - start);
			}
		});
		return factory.getProxy(getClass().getClassLoader());
	}

	private synchronized void record(String key, long nanos) {
		int end = key.lastIndexOf(':');
		String family = (end > 0) ? key.substring(0, end) : key;
		this.samples.computeIfAbsent(family, (name) -> new ArrayList<>()).add(nanos);
	}

	/**
	 * Forgets every sample recorded so far.
	 */
	public synchronized void reset() {
		this.samples.clear();
	}

	/**
	 * Returns the acquisition times recorded so far, by lock family.
	 * @return a copy of the samples, in nanoseconds
	 */
	public synchronized Map<String, List<Long>> samples() {
		Map<String, List<Long>> copy = new TreeMap<>();
		this.samples.forEach((family, nanos) -> copy.put(family, List.copyOf(nanos)));
		return copy;
	}

	/**
	 * Returns the acquisition times of one lock family.
	 * @param family the key up to its last {@code ':'}
	 * @return the samples in nanoseconds, empty if there are none
	 */
	public synchronized List<Long> samples(@Nullable String family) {
		List<Long> nanos = this.samples.get(family);
		return (nanos != null) ? List.copyOf(nanos) : List.of();
	}

}
