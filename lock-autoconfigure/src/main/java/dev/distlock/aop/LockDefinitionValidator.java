package dev.distlock.aop;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

import dev.distlock.DistributedLock;
import dev.distlock.DistributedLockConfigurationException;
import dev.distlock.LockClient;

/**
 * Checks every {@link DistributedLock @DistributedLock} method of each bean as the bean
 * is created, so that a malformed annotation fails the application context at startup
 * instead of the first call, and that a {@link LockClient} exists to serve the locks.
 */
public class LockDefinitionValidator implements BeanPostProcessor {

	private final LockDefinitionSource definitions;

	private final ListableBeanFactory beanFactory;

	private final Supplier<String> missingClientAdvice;

	private final Set<Class<?>> checked = ConcurrentHashMap.newKeySet();

	/**
	 * Creates a validator.
	 * @param definitions parses the annotations
	 * @param beanFactory where a {@link LockClient} bean must be defined
	 * @param missingClientAdvice what to do when there is none, asked only then
	 */
	public LockDefinitionValidator(LockDefinitionSource definitions, ListableBeanFactory beanFactory,
			Supplier<String> missingClientAdvice) {
		this.definitions = definitions;
		this.beanFactory = beanFactory;
		this.missingClientAdvice = missingClientAdvice;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		Class<?> type = AopProxyUtils.ultimateTargetClass(bean);
		if (this.checked.add(type) && AnnotationUtils.isCandidateClass(type, DistributedLock.class)) {
			AtomicBoolean locked = new AtomicBoolean();
			ReflectionUtils.doWithMethods(type, (method) -> {
				if (this.definitions.find(method, type) != null) {
					locked.set(true);
				}
			}, ReflectionUtils.USER_DECLARED_METHODS);
			if (locked.get()) {
				checkLockClient(beanName);
			}
		}
		return bean;
	}

	private void checkLockClient(String beanName) {
		if (this.beanFactory.getBeanNamesForType(LockClient.class, true, false).length == 0) {
			throw new DistributedLockConfigurationException(
					"Bean '" + beanName + "' has @DistributedLock methods " + "but there is no LockClient bean",
					StringUtils.capitalize(this.missingClientAdvice.get()) + ".");
		}
	}

}
