package cluster

// The Kubernetes objects grue exp k8s writes, as plain data: only the
// fields it sets, named as the API names them (core/v1 ConfigMap,
// batch/v1 Job). Every string is a scalar, which the encoder quotes.

// objectMeta is an object's metadata.
type objectMeta struct {
	Name      scalar            `yaml:"name,omitempty"`
	Namespace scalar            `yaml:"namespace,omitempty"`
	Labels    map[string]scalar `yaml:"labels,omitempty"`
}

// configMap is a core/v1 ConfigMap.
type configMap struct {
	APIVersion scalar          `yaml:"apiVersion"`
	Kind       scalar          `yaml:"kind"`
	Metadata   objectMeta      `yaml:"metadata"`
	Data       map[string]text `yaml:"data"`
}

// job is a batch/v1 Job.
type job struct {
	APIVersion scalar     `yaml:"apiVersion"`
	Kind       scalar     `yaml:"kind"`
	Metadata   objectMeta `yaml:"metadata"`
	Spec       jobSpec    `yaml:"spec"`
}

// jobSpec is an Indexed Job's spec.
type jobSpec struct {
	CompletionMode       scalar          `yaml:"completionMode"`
	Completions          int             `yaml:"completions"`
	Parallelism          int             `yaml:"parallelism"`
	BackoffLimitPerIndex int             `yaml:"backoffLimitPerIndex"`
	Template             podTemplateSpec `yaml:"template"`
}

// podTemplateSpec is the template of the Job's pods.
type podTemplateSpec struct {
	Metadata objectMeta `yaml:"metadata"`
	Spec     podSpec    `yaml:"spec"`
}

// podSpec is a pod's spec.
type podSpec struct {
	RestartPolicy scalar      `yaml:"restartPolicy"`
	Containers    []container `yaml:"containers"`
	Volumes       []volume    `yaml:"volumes"`
}

// container is a pod's container.
type container struct {
	Name         scalar        `yaml:"name"`
	Image        scalar        `yaml:"image"`
	Args         []scalar      `yaml:"args"`
	Env          []envVar      `yaml:"env"`
	EnvFrom      []envFrom     `yaml:"envFrom,omitempty"`
	Resources    resources     `yaml:"resources"`
	VolumeMounts []volumeMount `yaml:"volumeMounts"`
}

// envVar is a variable of a container's environment.
type envVar struct {
	Name  scalar `yaml:"name"`
	Value scalar `yaml:"value"`
}

// envFrom is a source of a container's environment: a Secret's keys.
type envFrom struct {
	SecretRef objectRef `yaml:"secretRef"`
}

// objectRef names an object in the pod's namespace.
type objectRef struct {
	Name scalar `yaml:"name"`
}

// resources are a container's resource requests and limits, quantities
// such as "2" or "2Gi".
type resources struct {
	Limits   map[string]scalar `yaml:"limits,omitempty"`
	Requests map[string]scalar `yaml:"requests,omitempty"`
}

// volumeMount mounts a volume of the pod in a container.
type volumeMount struct {
	Name      scalar `yaml:"name"`
	MountPath scalar `yaml:"mountPath"`
	ReadOnly  bool   `yaml:"readOnly,omitempty"`
}

// volume is a volume of the pod: a ConfigMap's keys as files, or a
// PersistentVolumeClaim.
type volume struct {
	Name                  scalar           `yaml:"name"`
	ConfigMap             *configMapVolume `yaml:"configMap,omitempty"`
	PersistentVolumeClaim *claimVolume     `yaml:"persistentVolumeClaim,omitempty"`
}

// configMapVolume mounts the keys Items name of ConfigMap Name as files.
type configMapVolume struct {
	Name  scalar      `yaml:"name"`
	Items []keyToPath `yaml:"items"`
}

// keyToPath puts a ConfigMap's key at a path under the mount.
type keyToPath struct {
	Key  scalar `yaml:"key"`
	Path scalar `yaml:"path"`
}

// claimVolume is a PersistentVolumeClaim as a volume.
type claimVolume struct {
	ClaimName scalar `yaml:"claimName"`
}
